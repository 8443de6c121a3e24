"""What every layer stands on: the settings fields a parameter is declared with (setting_fields), kept files
written safely (storage) and the one-line notices a user reads (notices). Imports nothing of the arcade's.
"""
LAYER = "foundation"

"""Shared pygame widgets: palette, text, the HUD frame, help overlay, previews."""

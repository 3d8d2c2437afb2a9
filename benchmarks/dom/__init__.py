"""Measurements of the DOM source against reality (WPT accname, Chromium, relocation, speed)."""

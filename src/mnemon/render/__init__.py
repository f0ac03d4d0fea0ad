"""Rendering of thoughts for people: self-contained SVG thought cards, PNG when a rasteriser is available."""
from .cards import CardFiles, THEMES, badge_for, render_svg, resolve_theme, svg_to_png, write_card

__all__ = ["CardFiles", "THEMES", "badge_for", "render_svg", "resolve_theme", "svg_to_png", "write_card"]

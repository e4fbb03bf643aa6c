"""Bundled open-licensed fonts (DejaVu Sans 2.37, Bitstream Vera licence: LICENSE.txt)."""

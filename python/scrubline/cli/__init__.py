"""Command-line front ends: scrubline (now), iteron and titah (later issues)."""

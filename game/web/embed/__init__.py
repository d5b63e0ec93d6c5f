"""embed.html: a scripted example step by step (options), or a live table with fixed options (game)."""

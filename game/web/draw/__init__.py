"""The page drawn: pure functions from the page's values to markup and frames, and each game's table (tables/)."""

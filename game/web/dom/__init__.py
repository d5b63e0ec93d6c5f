"""The page's drivers that touch the browser (storage, tabs): each behind a
small interface the rest of game.web uses without a browser."""

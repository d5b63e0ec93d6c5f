"""What the page knows, as frozen values, and the pure reducers that change them (no drawing of markup but each panel's own, no browser, no storage: see game.web)."""

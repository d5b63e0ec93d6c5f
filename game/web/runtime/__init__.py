"""The page's runtime: the controller's dispatch loop, the effects carried out through small drivers, bots and hints thinking beside the page, and online play's door."""

"""Online play's part of the page, downloaded only once a person chooses it (online.zip: game.build.PARTS); its actions and drivers are game.web.runtime.online_door's."""

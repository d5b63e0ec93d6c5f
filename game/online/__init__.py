"""Playing with friends on their own devices: the host's page runs the game,
each guest's page receives only what its seat may see and sends only its
decisions. Everything here is pure Python over plain data; the connection
itself is a driver (`game.online.wire.Wire`) whose browser form is in
game.web.dom.
"""

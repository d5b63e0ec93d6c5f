// A worker of the browser tests' own (copied into a copy of the built site):
// it starts Python as the game's worker does (static/js/python.mjs), then
// imports a standard library module the memory snapshot does not hold, which
// a restored Python reads from the standard library's zip only then. Posts
// [how Python started, what the import said].
import { loadPyodide, started } from "./static/js/python.mjs";

const py = await loadPyodide();
postMessage([started, py.runPython(`
import sys
assert "difflib" not in sys.modules
try:
    import difflib
    said = "imported " + difflib.__name__
except Exception as e:
    said = type(e).__name__ + ": " + str(e)
said`)]);

"""The site's copy of the pinned runtime: what the build changes in it."""

from __future__ import annotations

import pytest

from game.build import (MICROPYTHON, NODE, BuildError, _lazy_shared_memory,
                        _micropython_yields, _wasm_failure_said, _yield_before_bootstrap)

ASM = NODE / "pyodide" / "pyodide.asm.mjs"
LOADER = NODE / "pyodide" / "pyodide.mjs"
MICROPYTHON_LOADER = NODE / MICROPYTHON / "micropython.mjs"


@pytest.mark.skipif(not ASM.exists(), reason="npm ci has not been run")
def test_the_shared_memory_is_made_on_first_use_only() -> None:
    script = ASM.read_text(encoding="utf-8")
    lazy = _lazy_shared_memory(script)
    # The one shared memory in the script is now made inside the sleep, not at load.
    assert lazy.count("shared:!0") == 1
    assert "var io;function so(t){try{return io??=new Int32Array(new WebAssembly.Memory" in lazy


def test_another_runtime_version_stops_the_build() -> None:
    with pytest.raises(BuildError, match="not the pinned version"):
        _lazy_shared_memory("var x=new WebAssembly.Memory({shared:!0,initial:1,maximum:1});")


@pytest.mark.skipif(not LOADER.exists(), reason="npm ci has not been run")
def test_loadpyodide_lets_the_browser_in_before_its_bootstrap() -> None:
    patched = _yield_before_bootstrap(LOADER.read_text(encoding="utf-8"))
    # Instantiation, then a yield to the browser, then the bootstrap (restore or start-up).
    assert "Fe(r,t);await new Promise(f=>(globalThis.setImmediate||setTimeout)(f));let a=Ae(r,s,t)" \
        in patched


def test_another_loader_version_stops_the_build() -> None:
    with pytest.raises(BuildError, match="not the pinned version"):
        _yield_before_bootstrap("async function dt(e={}){let a=Ae(r,s,t)}")


@pytest.mark.skipif(not LOADER.exists(), reason="npm ci has not been run")
def test_a_wasm_that_fails_to_instantiate_is_told_to_the_page() -> None:
    patched = _wasm_failure_said(LOADER.read_text(encoding="utf-8"))
    # Still warned in the console, and now an event the page's loader listens to.
    assert patched.count('console.warn("wasm instantiation failed!")') == 1
    assert 'globalThis.dispatchEvent?.(new Event("pyodide:wasm-failed"))}' in patched
    with pytest.raises(BuildError, match="not the pinned version"):
        _wasm_failure_said("catch(l){console.warn(l)}")


@pytest.mark.skipif(not MICROPYTHON_LOADER.exists(), reason="npm ci has not been run")
def test_loadmicropython_lets_the_browser_in_between_its_steps() -> None:
    patched = _micropython_yields(MICROPYTHON_LOADER.read_text(encoding="utf-8"))
    # The wasm's start, a yield, the proxies and the ROM, a yield, MicroPython's own start.
    start = patched.index("Module=await _createMicroPythonModule(Module),")
    first = patched.index("await new Promise(f=>setTimeout(f)),globalThis.Module=Module,")
    romfs = patched.index('Module.ccall("mp_js_register_romfs"')
    second = patched.index('await new Promise(f=>setTimeout(f));return Module.ccall("mp_js_init"')
    assert start < first < romfs < second
    # And inside the first: the runtime's start (Emscripten's doRun) in a timer task
    # of its own, which the pinned run() does for a module with a `setStatus`.
    assert patched.index("let Module={setStatus:()=>{},locateFile:") < start
    # and before it the module's set-up, in three: its glue, its file system, the rest.
    staticinit = patched.index("await new Promise(f=>setTimeout(f)),FS.staticInit(),"
                               "await new Promise(f=>setTimeout(f)),")
    assert patched.index("async function _createMicroPythonModule(") < staticinit < start
    assert ('Module.setStatus?(Module.setStatus("Running..."),setTimeout(()=>{'
            'setTimeout(()=>Module.setStatus(""),1),doRun()},1))') in patched
    with pytest.raises(BuildError, match="micropython.mjs is not the pinned version"):
        _micropython_yields("async function loadMicroPython(options){}")

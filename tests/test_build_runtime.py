"""The site's copy of the pinned runtime: what the build changes in it."""

from __future__ import annotations

import pytest

from game.build import NODE, BuildError, _lazy_shared_memory

ASM = NODE / "pyodide" / "pyodide.asm.mjs"


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

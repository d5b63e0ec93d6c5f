// Reads QR matrices (JSON array of arrays of "0"/"1" row strings) on stdin,
// draws each at 4 pixels a module with a 4-module quiet zone and decodes it
// with jsQR (Apache-2.0, pinned in package.json); prints the texts (null for
// a symbol it cannot read).
const jsQR = require("jsqr");

const SCALE = 4;
const QUIET = 4;
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const texts = JSON.parse(input).map((rows) => {
    const side = (rows.length + 2 * QUIET) * SCALE;
    const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
    rows.forEach((row, r) => {
      [...row].forEach((bit, c) => {
        if (bit !== "1") return;
        for (let y = 0; y < SCALE; y++) {
          for (let x = 0; x < SCALE; x++) {
            const at = (((r + QUIET) * SCALE + y) * side + (c + QUIET) * SCALE + x) * 4;
            pixels.fill(0, at, at + 3);
          }
        }
      });
    });
    const found = jsQR(pixels, side, side, { inversionAttempts: "dontInvert" });
    return found ? found.data : null;
  });
  process.stdout.write(JSON.stringify(texts));
});

// The independent QR oracle for tests/test_qr.py: qrcode-generator (MIT,
// pinned in package.json) encodes each text of the JSON array on stdin in
// byte mode (UTF-8) at level M, smallest version; prints their matrices as
// JSON, one string of 0s and 1s per row.
const qrcode = require("qrcode-generator");
qrcode.stringToBytes = qrcode.stringToBytesFuncs["UTF-8"];

let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const matrices = JSON.parse(input).map((text) => {
    const qr = qrcode(0, "M");
    qr.addData(text, "Byte");
    qr.make();
    const n = qr.getModuleCount();
    const rows = [];
    for (let r = 0; r < n; r++) {
      let row = "";
      for (let c = 0; c < n; c++) row += qr.isDark(r, c) ? "1" : "0";
      rows.push(row);
    }
    return rows;
  });
  process.stdout.write(JSON.stringify(matrices));
});

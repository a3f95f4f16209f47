// Preloaded (node --expose-gc -r) into the servers whose memory is compared: on SIGUSR2 a full
// collection runs, so the resident size read next is live memory rather than garbage. With
// BENCH_HEAP_FILE set, the JS heap in use after it is written there, for the live objects alone.
const { writeFileSync } = require("node:fs");

process.on("SIGUSR2", () => {
  if (typeof global.gc === "function") global.gc();
  const heapFile = process.env.BENCH_HEAP_FILE;
  if (heapFile) writeFileSync(heapFile, String(process.memoryUsage().heapUsed));
});

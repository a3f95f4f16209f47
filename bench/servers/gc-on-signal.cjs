// Preloaded (node --expose-gc -r) into the servers whose memory is compared: on SIGUSR2 a full
// collection runs, so the resident size read next is live memory rather than garbage.
process.on("SIGUSR2", () => {
  if (typeof global.gc === "function") global.gc();
});

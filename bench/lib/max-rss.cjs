// Preloaded (`node -r`) into a command the benchmark times: its peak RSS, in KiB, as its last stderr line.
process.on("exit", () => process.stderr.write(`\nmax-rss-kib=${process.resourceUsage().maxRSS}\n`));

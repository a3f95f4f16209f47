/** The dashboard page's style, served as a file (`dashboard.css`) beside its script. */
export const DASHBOARD_STYLE = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0 auto; max-width: 80rem; padding: 1rem 1.5rem; }
header { display: flex; align-items: baseline; gap: 1rem; flex-wrap: wrap; }
h1 { font-size: 1.4rem; margin-right: auto; }
h2 { font-size: 1.1rem; margin-top: 2rem; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #8884; padding: 0.35rem 0.6rem; text-align: left; vertical-align: top; }
td.count, th.count { text-align: right; font-variant-numeric: tabular-nums; }
td.id, code { font-family: ui-monospace, monospace; font-size: 0.85rem; overflow-wrap: anywhere; }
td.controls { white-space: nowrap; }
td.controls button + button { margin-left: 0.4rem; }
#state { color: #888; font-size: 0.9rem; }
#state[data-state="failed"] { color: #c33; }
#problem { border-left: 4px solid #c33; padding: 0.4rem 0.8rem; }
#notice { border-left: 4px solid #3a3; padding: 0.4rem 0.8rem; }
#credential { margin: 1rem 0; }
`;

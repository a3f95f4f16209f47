import parsePrometheusTextFormat from "parse-prometheus-text-format";

export type Scrape = ReturnType<typeof parsePrometheusTextFormat>;

/** `/metrics` of the server at `baseUrl`, parsed; fails on anything but a 200 in the text format. */
export async function scrape(baseUrl: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const response = await fetch(`${baseUrl}/metrics`, { headers });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}: ${text}`);
  // The parser folds every series of a labelled histogram into one: read untyped, each series'
  // `_count`, `_sum` and `_bucket` lines keep their labels, as families of those names.
  return parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, "# TYPE $1 untyped"));
}

function matches(labels: Record<string, string> | undefined, wanted: Record<string, string | undefined>): boolean {
  return Object.entries(wanted).every(([name, value]) => labels?.[name] === value);
}

/** The samples of the family `name` whose labels are `wanted` (a label `undefined` there must be absent). */
export function samples(scraped: Scrape, name: string, wanted: Record<string, string | undefined> = {}) {
  return scraped.filter((family) => family.name === name).flatMap((family) => family.metrics.filter((sample) => matches(sample.labels, wanted)));
}

/** How many observations the histogram `name` counted under those labels, all series together. */
export function histogramCount(scraped: Scrape, name: string, wanted: Record<string, string | undefined> = {}): number {
  return samples(scraped, `${name}_count`, wanted).reduce((total, sample) => total + Number(sample.value), 0);
}

/** The value of the gauge or counter `name` under those labels, all series together; undefined when it has none. */
export function gaugeValue(scraped: Scrape, name: string, wanted: Record<string, string | undefined> = {}): number | undefined {
  const found = samples(scraped, name, wanted);
  return found.length ? found.reduce((total, sample) => total + Number(sample.value), 0) : undefined;
}

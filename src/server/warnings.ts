// Warning headers, bounded as upstream's warning recorder bounds them: a request that warns about
// every one of 300,000 unknown fields must not send 300,000 headers (clients refuse a response
// whose headers pass their limit, 16 KiB in Node). Upstream's recorder drops repeated texts and
// keeps the texts' total length under 4,096 runes: when a warning would pass it, every warning so
// far is shortened to 256 runes and the header is written again from the start, and warnings are
// then added (shortened) until the total reaches the limit, after which the rest are dropped. No
// warning says that others were dropped. A text with a control character is no header at all.

/** Upstream's bound on the runes of all warning texts of one response, before truncating. */
export const MAX_WARNING_TOTAL_RUNES = 4 * 1024;
/** Upstream's bound on one warning's runes once the total was passed. */
export const MAX_WARNING_ITEM_RUNES = 256;

// Go's unicode.IsControl: C0, DEL and C1.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The number of code points in `s`, counting no further than `limit + 1`. */
function runesUpTo(s: string, limit: number): number {
  if (s.length <= limit) {
    let n = 0;
    for (const _ of s) n++;
    return n;
  }
  let n = 0;
  for (const _ of s) if (++n > limit) break;
  return n;
}

/** The first `limit` code points of `s`. */
function firstRunes(s: string, limit: number): string {
  let n = 0;
  let end = 0;
  for (const ch of s) {
    if (n++ === limit) break;
    end += ch.length;
  }
  return s.slice(0, end);
}

/** A Warning header value in upstream's form: code 299, agent `-`, the text quoted. */
const headerOf = (text: string) => `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/** The warnings of one response, recorded in order the way upstream's recorder takes them. */
export class WarningRecorder {
  private readonly seen = new Set<string>();
  private readonly ordered: string[] = [];
  private headers: string[] = [];
  private written = 0;
  private truncating = false;

  /** Whether any further warning is dropped unseen (the bound was passed and reached again). */
  get full(): boolean {
    return this.truncating && this.written >= MAX_WARNING_TOTAL_RUNES;
  }

  add(text: string): void {
    if (text === '' || this.full || this.seen.has(text)) return;
    this.seen.add(text);
    this.ordered.push(text);
    let shown = text;
    let runes = runesUpTo(text, MAX_WARNING_TOTAL_RUNES);
    if (this.truncating && runes > MAX_WARNING_ITEM_RUNES) {
      shown = firstRunes(text, MAX_WARNING_ITEM_RUNES);
      runes = MAX_WARNING_ITEM_RUNES;
    }
    if (CONTROL.test(shown)) return;
    if (this.written + runes <= MAX_WARNING_TOTAL_RUNES || this.truncating) {
      this.written += runes;
      this.headers.push(headerOf(shown));
      return;
    }
    // Past the bound for the first time: start again with every warning so far shortened.
    this.truncating = true;
    this.written = 0;
    this.headers = [];
    for (const t of this.ordered) {
      const short = firstRunes(t, MAX_WARNING_ITEM_RUNES);
      if (CONTROL.test(short)) continue;
      this.written += runesUpTo(short, MAX_WARNING_ITEM_RUNES);
      this.headers.push(headerOf(short));
    }
  }

  /** The Warning header values, in order. */
  values(): string[] {
    return [...this.headers];
  }
}

/** The Warning header values for a response's warning texts, bounded as upstream bounds them. */
export function warningHeaders(texts: readonly string[]): string[] {
  const r = new WarningRecorder();
  for (const t of texts) {
    if (r.full) break;
    r.add(t);
  }
  return r.values();
}

/**
 * Appends `more` to a request's warning texts, leaving out those the bound would drop anyway (all
 * after it is full), so a body with a finding per key costs the response nothing past the bound.
 * warningHeaders over the result answers exactly as over every text.
 */
export function addWarnings(warnings: string[], more: Iterable<string>): void {
  const r = new WarningRecorder();
  for (const t of warnings) r.add(t);
  for (const t of more) {
    if (r.full) return;
    r.add(t);
    warnings.push(t);
  }
}

// The page's two DOM tools: h() builds elements, and VirtualList draws only
// the rows in view, so that 10,000 partitions or 100,000 events cost the
// rows on screen. Text always goes in as text nodes (never innerHTML): what
// comes from the wire (keys, values, headers, client ids) is data, never markup.

type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | number | boolean | ((e: Event) => void) | undefined> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else if (k === 'class') el.className = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** A list of `count` rows of one height, drawing only those in view (and a few around them). */
export class VirtualList {
  readonly el: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private count = 0;
  private pending = false;

  constructor(
    private readonly rowHeight: number,
    private readonly header: HTMLElement | null,
    private readonly renderRow: (index: number) => HTMLElement,
    /** The rows about to be drawn: a paged source fetches the ones it lacks. */
    private readonly onRange?: (from: number, to: number) => void,
    extraClass = '',
    private readonly maxHeight = 260,
  ) {
    this.spacer = h('div', { class: 'vspacer' });
    this.el = h('div', { class: `vlist ${extraClass}` }, this.spacer);
    this.el.addEventListener('scroll', () => this.schedule());
  }

  get length(): number {
    return this.count;
  }

  setCount(n: number): void {
    this.count = n;
    this.schedule();
  }

  /** Draws again (the rows' data changed). */
  schedule(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.paint();
    });
  }

  atBottom(): boolean {
    return this.el.scrollTop + this.el.clientHeight >= this.el.scrollHeight - this.rowHeight * 2;
  }

  scrollToBottom(): void {
    this.el.scrollTop = this.el.scrollHeight;
  }

  scrollToIndex(i: number): void {
    this.el.scrollTop = Math.max(0, (i - 3) * this.rowHeight);
    this.paint();
  }

  paint(): void {
    const head = this.header ? this.rowHeight : 0;
    this.spacer.style.height = `${this.count * this.rowHeight + head}px`;
    // As tall as its rows, up to the style sheet's height: an empty list takes little room.
    this.el.style.height = `${Math.min(this.maxHeight, Math.max(3, this.count + 1) * this.rowHeight + head + 2)}px`;
    const top = Math.max(0, this.el.scrollTop - head);
    const visible = this.el.clientHeight || 400;
    const from = Math.max(0, Math.floor(top / this.rowHeight) - 8);
    const to = Math.min(this.count, Math.ceil((top + visible) / this.rowHeight) + 8);
    this.onRange?.(from, to);
    const rows: HTMLElement[] = this.header ? [this.header] : [];
    for (let i = from; i < to; i++) {
      const row = this.renderRow(i);
      row.style.top = `${i * this.rowHeight + head}px`;
      rows.push(row);
    }
    this.spacer.replaceChildren(...rows);
  }
}

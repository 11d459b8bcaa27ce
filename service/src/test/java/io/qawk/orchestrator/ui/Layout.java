package io.qawk.orchestrator.ui;

import java.util.List;

/**
 * What of the page a {@link Browser} shows does not fit where it is: measured in the page, not read from the DOM.
 * Every visible element must lie inside each card or container around it ({@code main > section}, a type's card, the
 * drawer, an open dialog, a system's card in the drawer), compared by bounding rectangles; a container must not scroll
 * sideways; the page itself must not scroll sideways. The one place content may be wider than its container is a
 * table in a scroll region ({@code .table-wrap}) — and then that region must be focusable (tabindex), so a keyboard
 * can scroll it.
 */
final class Layout {

    private Layout() {
    }

    static final String CONTAINERS = "main > section, article.card, #drawer, dialog[open], #drawer section.run";

    private static final String SCRIPT = """
            const containers = arguments[0];
            const out = [];
            const visible = el => {
              if (!el.getClientRects().length) return false;
              const s = getComputedStyle(el);
              return s.visibility !== 'hidden' && s.display !== 'none';
            };
            const name = el => {
              let n = el.tagName.toLowerCase();
              if (el.id) n += '#' + el.id;
              if (el.classList.length) n += '.' + [...el.classList].join('.');
              for (const a of el.attributes) if (a.name.startsWith('data-')) n += `[${a.name}=${a.value}]`;
              const t = (el.textContent || '').trim().replace(/\\s+/g, ' ');
              return n + (t ? ` "${t.length > 40 ? t.substring(0, 40) + '…' : t}"` : '');
            };
            const scrolls = el => {
              const x = getComputedStyle(el).overflowX;
              return (x === 'auto' || x === 'scroll') && el.scrollWidth > el.clientWidth + 1;
            };
            const seen = new Set();
            if (document.documentElement.scrollWidth > window.innerWidth + 1) {
              out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide in a ${window.innerWidth} px window`);
            }
            for (const c of document.querySelectorAll(containers)) {
              if (!visible(c)) continue;
              const cr = c.getBoundingClientRect();
              if (scrolls(c) && !c.classList.contains('table-wrap')) {
                out.push(`${name(c)} scrolls sideways: ${c.scrollWidth} px of content in ${c.clientWidth} px`);
              }
              for (const e of c.querySelectorAll('*')) {
                if (!visible(e) || e.closest('.sr-only')) continue;
                let region = null;
                for (let a = e.parentElement; a && a !== c; a = a.parentElement) {
                  if (scrolls(a)) { region = a; break; }
                }
                if (region) {
                  if (!seen.has(region) && region.tabIndex < 0) {
                    out.push(`${name(region)} scrolls sideways (${region.scrollWidth} px in ${region.clientWidth} px) but a keyboard cannot reach it (no tabindex)`);
                  }
                  seen.add(region);
                  continue;
                }
                const r = e.getBoundingClientRect();
                if (r.width === 0 && r.height === 0) continue;
                const right = Math.round(r.right - cr.right), left = Math.round(cr.left - r.left);
                if (right > 1) out.push(`${name(e)} ends ${right} px past the right edge of ${name(c)}`);
                else if (left > 1) out.push(`${name(e)} starts ${left} px before the left edge of ${name(c)}`);
              }
            }
            return out;
            """;

    /** Each element that does not fit, with where and by how much; empty when everything fits. */
    @SuppressWarnings("unchecked")
    static List<String> overflows(Browser browser) {
        return (List<String>) browser.js(SCRIPT, CONTAINERS);
    }

    /** How many lines the element {@code css} finds takes (its height over its line height). */
    static long lines(Browser browser, String css) {
        return (Long) browser.js("""
                const e = document.querySelector(arguments[0]);
                const s = getComputedStyle(e);
                const line = parseFloat(s.lineHeight) || parseFloat(s.fontSize) * 1.45;
                const pad = parseFloat(s.paddingTop) + parseFloat(s.paddingBottom);
                return Math.round((e.getBoundingClientRect().height - pad) / line);
                """, css);
    }
}

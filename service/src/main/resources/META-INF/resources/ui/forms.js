/*
 * What the "New deployment" and "New manifest" forms share: labelled fields with their error line, the API's field
 * errors (problem+json `errors[].field`) shown at the field they name, drafts kept in localStorage per user and form,
 * numbers and lists read from text. Modules import them; scripts that are not modules find them as `shared.forms`.
 * Like app.js it puts data into the page only as text.
 */
import { ui, h, problemText } from './core.js';
import { plugin } from './registry.js';
let seq = 0;

/**
 * A labelled control: `.field[data-field=<API path>]` holding the label, the control, a hint and the line its
 * error goes to. opts: field (the API's path), hint (text or nodes), class.
 */
export function field(label, control, opts) {
  const o = opts || {};
  if (!control.id) control.id = `fld-${++seq}`;
  const errId = `${control.id}-error`;
  const hintId = `${control.id}-hint`;
  control.setAttribute('aria-describedby', (o.hint ? hintId + ' ' : '') + errId);
  return h('div', { class: 'field' + (o.class ? ' ' + o.class : ''), 'data-field': o.field },
    h('label', { for: control.id, text: label }), control,
    o.hint ? h('p', { class: 'hint muted', id: hintId }, o.hint) : null,
    h('p', { class: 'field-error', id: errId }));
}

/** A checkbox with its label after it, as a field. */
export function checkField(label, control, opts) {
  const o = opts || {};
  if (!control.id) control.id = `fld-${++seq}`;
  const errId = `${control.id}-error`;
  control.setAttribute('aria-describedby', errId);
  return h('div', { class: 'field check' + (o.class ? ' ' + o.class : ''), 'data-field': o.field },
    h('label', { for: control.id }, control, label),
    o.hint ? h('p', { class: 'hint muted', text: o.hint }) : null,
    h('p', { class: 'field-error', id: errId }));
}

/** A text input bound to obj[key]: every keystroke updates it and calls `changed`. */
export function textInput(name, obj, key, changed, attrs) {
  const input = h('input', Object.assign({ type: 'text', name, autocomplete: 'off', spellcheck: 'false' }, attrs || {}));
  input.value = obj[key] === undefined || obj[key] === null ? '' : String(obj[key]);
  input.addEventListener('input', () => { obj[key] = input.value; changed(); });
  return input;
}

/** A select bound to obj[key]; options: [value, text]. */
export function selectInput(name, options, obj, key, changed) {
  const sel = h('select', { name }, options.map(([value, text]) => h('option', { value, text })));
  sel.value = obj[key] === undefined || obj[key] === null ? '' : String(obj[key]);
  if (sel.value !== String(obj[key] ?? '')) obj[key] = sel.value; // what was kept may be gone
  sel.addEventListener('change', () => { obj[key] = sel.value; changed(); });
  return sel;
}

export function checkbox(name, obj, key, changed) {
  const box = h('input', { type: 'checkbox', name });
  box.checked = !!obj[key];
  box.addEventListener('change', () => { obj[key] = box.checked; changed(); });
  return box;
}

/** A whole number from text; other text is sent as it is, so the API says what is wrong with it; blank: absent. */
export function number(text) {
  const t = String(text ?? '').trim();
  if (t === '') return undefined;
  return /^-?\d+$/.test(t) ? Number(t) : t;
}

/** Names from text, in the order given, separated by commas or new lines. */
export function names(text) {
  return String(text || '').split(/[,\n]/).map(x => x.trim()).filter(Boolean);
}

/** What a form keeps across leaving the page: one entry per user and form in localStorage. */
export function draft(kind) {
  const key = `qawk.draft.${ui.me.user || 'anyone'}.${kind}`;
  return {
    key,
    load() {
      try { return JSON.parse(localStorage.getItem(key) || 'null'); } catch (e) { return null; }
    },
    save(value) {
      try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode, full: only not kept */ }
    },
    clear() {
      try { localStorage.removeItem(key); } catch (e) { /* nothing kept */ }
    },
  };
}

export function clearErrors(container) {
  for (const p of container.querySelectorAll('.field-error')) p.textContent = '';
  for (const c of container.querySelectorAll('[aria-invalid]')) c.removeAttribute('aria-invalid');
  const summary = container.querySelector('.form-errors');
  if (summary) summary.replaceChildren();
}

/** The field an API path belongs to: exactly, else its nearest parent (`groups[1]` → `groups`). */
export function locate(container, path) {
  let p = path || '';
  while (p) {
    const el = container.querySelector(`.field[data-field="${CSS.escape(p)}"]`);
    if (el) return el;
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    if (cut <= 0) break;
    p = p.substring(0, cut);
  }
  return null;
}

/** Marks a field as wrong with this message (added to what it already says). Returns its control. */
export function markField(el, message) {
  const p = el.querySelector('.field-error');
  p.textContent = p.textContent ? `${p.textContent}; ${message}` : message;
  const control = el.querySelector('input, select, textarea');
  if (control) control.setAttribute('aria-invalid', 'true');
  return control;
}

/**
 * Shows a refusal: each field error at its field in the API's words, those no field shows in the summary on top,
 * and anything else (403, 409, 503 …) there too. The first wrong field gets the focus.
 */
export function showProblem(container, r) {
  clearErrors(container);
  const d = r.data && typeof r.data === 'object' ? r.data : {};
  const errors = r.status === 400 && Array.isArray(d.errors) ? d.errors : [];
  const left = [];
  let first = null;
  for (const e of errors) {
    const el = locate(container, e.field);
    if (el) {
      const c = markField(el, e.message || 'is not valid');
      first = first || c;
    } else {
      left.push(e);
    }
  }
  summary(container, errors.length && !left.length ? 'Not accepted: see the fields marked below.' : problemText(r),
    left.map(e => h('li', {}, e.field ? [h('code', { text: e.field }), ' '] : null, e.message || '')));
  (first || container.querySelector('.form-errors')).focus();
}

export function summary(container, text, items) {
  const box = container.querySelector('.form-errors');
  box.replaceChildren(...[h('strong', { text }), items && items.length ? h('ul', {}, items) : null].filter(Boolean));
}

/** Opens a form's dialog; when it closes the focus goes back to what opened it. */
export function show(dialog, focus) {
  const opener = document.activeElement;
  dialog.addEventListener('close', () => {
    if (opener && document.body.contains(opener)) opener.focus();
  }, { once: true });
  if (!dialog.open) dialog.showModal();
  if (focus) focus.focus();
}

export function errorsBox() {
  return h('div', { class: 'form-errors', tabindex: '-1', 'aria-live': 'polite' });
}

export function debounce(fn, ms) {
  let t = null;
  return (...args) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...args), ms);
  };
}

plugin(shared => {
  shared.forms = Object.freeze({ field, checkField, textInput, selectInput, checkbox, number, names, draft,
    clearErrors, locate, markField, showProblem, summary, show, errorsBox, debounce });
});

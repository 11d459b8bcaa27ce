/*
 * Dialogs: a native <dialog> opened modally, focus put back where it was when it closes; confirmThen asks before a
 * change (the page's one confirm dialog, its words given by the caller).
 */
import { ui, h } from './core.js';

export function openDialog(dialog, focusEl) {
  const opener = document.activeElement;
  dialog.returnValue = '';
  return new Promise(resolve => {
    const onClose = () => {
      dialog.removeEventListener('close', onClose);
      const key = opener && opener.getAttribute && opener.getAttribute('data-key');
      const again = opener && document.body.contains(opener) ? opener
        : (key && document.querySelector(`[data-key="${CSS.escape(key)}"]`));
      if (again) again.focus();
      else if (ui.openDeployment !== null) document.getElementById('drawer-title').focus();
      resolve(dialog.returnValue === 'confirm');
    };
    dialog.addEventListener('close', onClose);
    dialog.showModal();
    if (focusEl) focusEl.focus();
  });
}

export async function confirmThen(spec, then) {
  const dialog = document.getElementById('confirm-dialog');
  document.getElementById('confirm-title').textContent = spec.title;
  document.getElementById('confirm-what').replaceChildren(...spec.body);
  const ok = document.getElementById('confirm-confirm');
  ok.textContent = spec.confirm;
  ok.className = spec.danger ? 'danger' : 'primary';
  if (await openDialog(dialog, ok)) await then();
}

/**
 * A form's dialog, made once and kept: its title set to `title`, its body (the element to fill) returned with it.
 * `wide` for forms with many fields.
 */
export function formDialog(id, title, wide) {
  let dialog = document.getElementById(id);
  if (!dialog) {
    dialog = h('dialog', { id, class: wide ? 'wide' : null, 'aria-labelledby': `${id}-title` },
      h('div', { class: 'dialog' }, h('h2', { id: `${id}-title` }), h('div', { id: `${id}-body` })));
    document.body.append(dialog);
  }
  document.getElementById(`${id}-title`).textContent = title;
  return { dialog, body: document.getElementById(`${id}-body`) };
}

/*
 * Four eyes on the screen (issue 42), an ES module that adds itself to the deployment drawer (registry.js: drawerLoad,
 * drawerKey, drawerHead).
 * - A deployment's drawer says whether it needs approval and by which rule (who must approve: an approver other than
 *   its creator), and who approved or rejected it, when, and the comment (GET /systemdeployments/{id}: approval).
 * - While it is AWAITING_APPROVAL, a signed-in approver who did not create it may approve it (comment optional) or
 *   reject it (comment required): POST /systemdeployments/{id}/approve or /reject with {"comment": …}. The API refuses
 *   the creator's own approval on its own (403 naming the rule); the screen only hides what the API would refuse.
 * - The deployment's own timeline (GET /systemdeployments/{id}/events): approvals, rejections, approvals taken back.
 * Data is only ever put into the page as text (shared.h), as everywhere on the screen.
 */

import { plugin } from './registry.js';

plugin(shared => {
  const { ui, h, button, api, notice, problemText, fmtTime } = shared;
  const comments = {};   // deployment id -> the comment being written (kept across the page's re-renders)
  const events = {};     // deployment id -> its own timeline, or { error }

  shared.hook('drawerLoad', d => shared.get(`/systemdeployments/${d.id}/events`)
    .then(list => { events[d.id] = list; }, e => { events[d.id] = { error: e.message }; }));
  shared.hook('drawerKey', () => events);

  const isApprover = () => (ui.me.roles || []).includes('approver');

  async function decide(d, verb) {
    const comment = (comments[d.id] || '').trim();
    if (verb === 'reject' && !comment) {
      notice('Say why it is rejected: a rejection needs a comment.', true);
      return;
    }
    const r = await api('POST', `/systemdeployments/${d.id}/${verb}`, { comment: comment || null });
    if (r.ok) {
      delete comments[d.id];
      notice(`${d.name} ${verb === 'approve' ? 'approved' : 'rejected'}.`, false);
    } else {
      notice(problemText(r), true);
    }
    await shared.refresh().catch(() => {});
  }

  function stateLine(d, a) {
    if (a.state === 'approved') {
      return h('p', { 'data-approval-state': 'approved' }, `Approved by ${a.approvedBy} ${fmtTime(a.approvedAt)}`,
        a.comment ? `: “${a.comment}”` : '');
    }
    if (a.state === 'rejected') {
      return h('p', { 'data-approval-state': 'rejected' }, `Rejected by ${a.rejectedBy} ${fmtTime(a.rejectedAt)}`,
        a.comment ? `: “${a.comment}”` : '');
    }
    return h('p', { 'data-approval-state': 'awaiting', text: 'Awaiting approval: it cannot start until an approver other than '
      + `${d.createdBy || 'its creator'} approves it.` });
  }

  function decisionForm(d) {
    if (d.state !== 'AWAITING_APPROVAL' || !isApprover()) return null;
    if (d.createdBy && d.createdBy === ui.me.user) {
      return h('p', { class: 'muted', 'data-approval-own': '', text: 'You created this deployment: another approver must approve it (four eyes).' });
    }
    const area = h('textarea', { id: `approval-comment-${d.id}`, 'data-key': `approval-comment-${d.id}`, rows: '2', maxlength: '2000',
      oninput: e => { comments[d.id] = e.target.value; } });
    area.value = comments[d.id] || '';
    return h('div', { class: 'approval-form' },
      h('label', { for: `approval-comment-${d.id}`, text: 'Comment (required to reject)' }), area,
      h('div', {},
        button('Approve', () => decide(d, 'approve'), { key: `approve-${d.id}`, ariaLabel: `Approve ${d.name}` }), ' ',
        button('Reject', () => decide(d, 'reject'), { key: `reject-${d.id}`, class: 'danger', ariaLabel: `Reject ${d.name}` })));
  }

  function timeline(d) {
    const list = events[d.id];
    if (!list || list.error || !list.length) return null;
    return h('ol', { class: 'approval-events', 'aria-label': 'Approval timeline' },
      list.map(e => h('li', {}, h('span', { class: 'muted', text: `${fmtTime(e.at)} ` }), e.message)));
  }

  shared.hook('drawerHead', d => {
    const a = d.approval;
    if (!a || !a.required) return null;
    return h('div', { class: 'approval-view', 'data-approval': d.id },
      h('h3', { text: 'Four eyes' }),
      h('p', { class: 'muted', 'data-approval-rule': '', text: a.rule }),
      stateLine(d, a), decisionForm(d), timeline(d));
  });
});

// The inspector page's style sheet and script, inline in every page: a page must open with no
// network and no other file.
//
// The script reads the run from the page's data (InspectorData.swift), and writes recorded text
// into the document only as text (`textContent`), never as markup. It draws only the timeline's
// rows in view (a fixed height each, in a list as tall as all of them) and only the chosen step's
// section, so a click or a key costs the same at 10 steps as at 100,000. With `#selftest` in its
// URL it checks itself, as a user would click and type (and, with a diagram, click a visited
// state), times a few clicks and arrow keys, and writes `PASS steps=N clicked=K` (then
// `nodes=S edges=E jumped=J` with a diagram, and `click=Tms key=Tms medians=Tms,Tms`, the fastest
// and the median times) or `FAIL reasons` into `#selftest`, where a headless browser's dump of the
// document shows it (.ci/inspector-browser.sh). Each of its checks takes one pass over the steps
// at most.

/// The page's CSS.
let inspectorStyle = """
  :root { color-scheme: light dark; --line: #8884; --pick: #3b82f633; --add: #16a34a; \
  --del: #dc2626; --muted: #8a8a8a; --path: #ea580c; --visited: #3b82f6; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.45 system-ui, sans-serif; display: flex; flex-direction: column; \
  height: 100vh; }
  header { padding: 8px 16px; border-bottom: 1px solid var(--line); }
  h1 { font-size: 18px; margin: 0 0 4px; }
  h2 { font-size: 16px; margin: 0 0 8px; }
  h3 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); \
  margin: 14px 0 4px; }
  dl#about { display: flex; flex-wrap: wrap; gap: 2px 20px; margin: 0; }
  dl#about div { display: flex; gap: 6px; }
  dt { color: var(--muted); }
  dd { margin: 0; }
  main { flex: 1; display: flex; min-height: 0; }
  nav#timeline { width: 38%; max-width: 520px; display: flex; flex-direction: column; \
  border-right: 1px solid var(--line); min-height: 0; }
  #filter { margin: 8px; padding: 4px 6px; font: inherit; }
  #shown { margin: 0 8px 4px; color: var(--muted); font-size: 12px; }
  #initial-link { margin: 0 8px 6px; align-self: flex-start; font: inherit; font-size: 12px; }
  #scroller { overflow-y: auto; flex: 1; min-height: 0; contain: strict; }
  ol#steps { list-style: none; margin: 0; padding: 0; position: relative; }
  ol#steps li { position: absolute; left: 0; right: 0; height: 22px; display: flex; gap: 8px; \
  padding: 1px 8px; line-height: 19px; cursor: pointer; border-bottom: 1px solid var(--line); \
  white-space: nowrap; overflow: hidden; }
  ol#steps li:hover { background: #8881; }
  ol#steps li.selected { background: var(--pick); }
  ol#steps li.same code { opacity: .55; }
  ol#steps li .n { color: var(--muted); min-width: 3.5em; text-align: right; }
  ol#steps li code { overflow: hidden; text-overflow: ellipsis; }
  #details { flex: 1; overflow: auto; padding: 12px 16px; contain: strict; }
  pre { margin: 0; font: 13px/1.4 ui-monospace, Menlo, Consolas, monospace; white-space: pre-wrap; \
  overflow-wrap: anywhere; }
  pre.diff .add { color: var(--add); }
  pre.diff .del { color: var(--del); }
  pre.diff .path { color: var(--muted); }
  ol.decisions { margin: 0; padding-left: 20px; }
  .none { color: var(--muted); margin: 0; }
  details { margin-top: 12px; }
  summary { cursor: pointer; color: var(--muted); }
  #explored { border-top: 1px solid var(--line); padding: 8px 16px; max-height: 30vh; \
  overflow: auto; }
  #explored ol { margin: 0; font-size: 12px; }
  #explored li.visited { background: var(--pick); cursor: pointer; }
  #explored .visits { color: var(--muted); }
  #explored.drawn { max-height: 50vh; }
  #explored .legend, #explored .left-out { color: var(--muted); font-size: 12px; margin: 0 0 6px; }
  #diagram { overflow: auto; max-height: 36vh; border: 1px solid var(--line); margin-bottom: 8px; }
  #diagram svg { display: block; font: 11px ui-monospace, Menlo, Consolas, monospace; }
  #diagram .edge path { fill: none; stroke: var(--muted); stroke-width: 1.2; }
  #diagram .edge polygon { fill: var(--muted); }
  #diagram .edge text { fill: var(--muted); text-anchor: middle; }
  #diagram .hop path { fill: none; stroke: var(--path); stroke-width: 3; opacity: .75; }
  #diagram .hop polygon { fill: var(--path); }
  #diagram .hop text { fill: var(--path); font-weight: 600; text-anchor: middle; \
  paint-order: stroke; stroke: Canvas; stroke-width: 3px; }
  #diagram .hop { cursor: pointer; }
  #diagram .node circle { fill: Canvas; stroke: var(--muted); stroke-width: 1.5; }
  #diagram .node circle.ring { fill: none; }
  #diagram .node text { fill: CanvasText; text-anchor: middle; dominant-baseline: central; }
  #diagram .node.visited { cursor: pointer; }
  #diagram .node.visited circle:not(.ring) { fill: #3b82f655; stroke: var(--visited); }
  #diagram .node.current circle:not(.ring) { stroke: var(--path); stroke-width: 4; }
  """

/// The page's JavaScript.
let inspectorScript = #"""
  (function () {
      'use strict';
      // The data (InspectorData.swift): texts once each, and four numbers per step.
      var data = JSON.parse(document.getElementById('data').textContent);
      var texts = data.texts;
      var events = data.events;
      var lists = data.decisions;
      var rows = data.steps;
      var count = Math.floor(rows.length / 4);
      var ROW = 22;
      var scroller = document.getElementById('scroller');
      var list = document.getElementById('steps');
      var details = document.getElementById('details');
      var filter = document.getElementById('filter');
      var shown = document.getElementById('shown');
      var current = -1;
      // The steps the filter keeps, in order, or null for all of them.
      var visible = null;
      // Each event's line in lower case, made when the filter first needs it.
      var lowered = [];

      function eventOf(step) { return rows[(step - 1) * 4]; }
      function lineOf(step) { return texts[events[eventOf(step) * 2 + 1]]; }
      function hasDiff(step) { return rows[(step - 1) * 4 + 2] >= 0; }
      function visibleCount() { return visible ? visible.length : count; }
      function stepAt(index) { return visible ? visible[index] : index + 1; }

      // The position in the list of the first step at or after `step`.
      function lowerBound(step) {
        if (!visible) { return Math.max(0, Math.min(count, step - 1)); }
        var low = 0;
        var high = visible.length;
        while (low < high) {
          var middle = (low + high) >> 1;
          if (visible[middle] < step) { low = middle + 1; } else { high = middle; }
        }
        return low;
      }

      function positionOf(step) {
        var index = lowerBound(step);
        return index < visibleCount() && stepAt(index) === step ? index : -1;
      }

      function element(tag, className, text) {
        var made = document.createElement(tag);
        if (className) { made.className = className; }
        if (text !== undefined) { made.textContent = text; }
        return made;
      }

      // The rows drawn: positions `drawnFirst` up to `drawnLast` of the list, for filter `drawnFor`.
      var drawnFirst = -1;
      var drawnLast = -1;
      var drawnFor = -1;
      var filtered = 0;
      var marked = null;

      // Draws the rows in view, and a block of them around: the list is as tall as all of its rows
      // and holds only these, which change only when a scroll leaves their block.
      function renderRows() {
        var total = visibleCount();
        var block = 16;
        var top = Math.floor(scroller.scrollTop / ROW / block) * block;
        var height = Math.max(scroller.clientHeight, ROW * 30);
        var first = Math.max(0, top - block);
        var last = Math.min(total, top + Math.ceil(height / ROW / block) * block + 2 * block);
        if (first !== drawnFirst || last !== drawnLast || drawnFor !== filtered) {
          list.style.height = total * ROW + 'px';
          var fragment = document.createDocumentFragment();
          for (var index = first; index < last; index++) {
            var step = stepAt(index);
            var item = element('li', hasDiff(step) ? '' : 'same');
            item.setAttribute('data-step', String(step));
            item.setAttribute('aria-selected', 'false');
            item.tabIndex = -1;
            item.style.top = index * ROW + 'px';
            item.appendChild(element('span', 'n', String(step)));
            item.appendChild(element('code', 'event', lineOf(step)));
            fragment.appendChild(item);
          }
          list.replaceChildren(fragment);
          drawnFirst = first;
          drawnLast = last;
          drawnFor = filtered;
          marked = null;
        }
        var position = positionOf(current);
        var row = position >= first && position < last ? list.children[position - first] : null;
        if (row !== marked) {
          if (marked) {
            marked.classList.remove('selected');
            marked.setAttribute('aria-selected', 'false');
          }
          if (row) {
            row.classList.add('selected');
            row.setAttribute('aria-selected', 'true');
          }
          marked = row;
        }
      }

      // Scrolls the list to show the row at `index`, and draws the rows.
      function reveal(index) {
        var top = index * ROW;
        var height = scroller.clientHeight;
        if (top < scroller.scrollTop) {
          scroller.scrollTop = top;
        } else if (top + ROW > scroller.scrollTop + height) {
          scroller.scrollTop = top + ROW - height;
        }
        renderRows();
      }

      function diffBlock(diff) {
        var block = element('pre', 'diff');
        diff.split('\n').forEach(function (line, index) {
          if (index > 0) { block.appendChild(document.createTextNode('\n')); }
          var kind = line.charAt(0) === '\u2212' ? 'del' : line.charAt(0) === '+' ? 'add' : 'path';
          block.appendChild(element('span', kind, line));
        });
        return block;
      }

      // Shows one step's section: its event, decisions, diff and state.
      function showDetail(step) {
        var section = element('section', 'detail');
        section.setAttribute('data-step', String(step));
        if (step === 0) {
          section.appendChild(element('h2', '', 'Initial state'));
          section.appendChild(element('pre', 'state', texts[data.initial]));
        } else {
          var at = (step - 1) * 4;
          section.appendChild(element('h2', '', 'Step ' + step));
          section.appendChild(element('h3', '', 'Event'));
          section.appendChild(element('pre', 'event', texts[events[rows[at] * 2]]));
          section.appendChild(element('h3', '', 'Decisions'));
          var decisions = lists[rows[at + 1]];
          if (decisions.length === 0) {
            section.appendChild(element('p', 'none', 'none'));
          } else {
            var ordered = element('ol', 'decisions');
            decisions.forEach(function (text) {
              var item = element('li');
              item.appendChild(element('pre', '', texts[text]));
              ordered.appendChild(item);
            });
            section.appendChild(ordered);
          }
          section.appendChild(element('h3', '', 'State: \u2212 before, + after'));
          if (rows[at + 2] >= 0) {
            section.appendChild(diffBlock(texts[rows[at + 2]]));
          } else {
            section.appendChild(element('p', 'none unchanged', 'The state did not change.'));
          }
          var after = element('details', 'after');
          after.appendChild(element('summary', '', 'The state after step ' + step));
          after.appendChild(element('pre', 'state', texts[rows[at + 3]]));
          section.appendChild(after);
        }
        details.replaceChildren(section);
      }

      function select(step) {
        if (!(step >= 0 && step <= count && Math.floor(step) === step)) { return false; }
        current = step;
        showDetail(step);
        var index = step > 0 ? positionOf(step) : -1;
        if (index >= 0) { reveal(index); } else { renderRows(); }
        markNode(step);
        return true;
      }

      // The diagram of the explored states, if the page has one: each visited state's steps.
      var diagram = document.getElementById('diagram-graph');
      var nodes = diagram ? Array.prototype.slice.call(diagram.querySelectorAll('g.node')) : [];
      var nodeOfStep = [];
      var currentNode = null;
      nodes.forEach(function (node) {
        node.visits = (node.getAttribute('data-visits') || '').split(' ').filter(function (text) {
          return text !== '';
        }).map(Number);
        node.visits.forEach(function (step) { nodeOfStep[step] = node; });
      });

      function markNode(step) {
        if (currentNode) { currentNode.classList.remove('current'); }
        currentNode = nodeOfStep[step] || null;
        if (currentNode) {
          currentNode.classList.add('current');
          // NB: scrolls the diagram only, not the page or the list, to show the state.
          var view = diagram.parentNode;
          var box = currentNode.getBoundingClientRect();
          var frame = view.getBoundingClientRect();
          if (box.top < frame.top || box.bottom > frame.bottom) {
            view.scrollTop += (box.top + box.bottom - frame.top - frame.bottom) / 2;
          }
          if (box.left < frame.left || box.right > frame.right) {
            view.scrollLeft += (box.left + box.right - frame.left - frame.right) / 2;
          }
        }
      }

      // Shows the state's first step, or the one after the step shown (its steps are in order).
      function jumpTo(node) {
        var visits = node.visits;
        var low = 0;
        var high = visits.length;
        while (low < high) {
          var middle = (low + high) >> 1;
          if (visits[middle] < current) { low = middle + 1; } else { high = middle; }
        }
        var index = low < visits.length && visits[low] === current ? low : -1;
        select(visits[index < 0 ? 0 : (index + 1) % visits.length]);
      }

      function move(by) {
        var total = visibleCount();
        if (total === 0) { return; }
        var index = positionOf(current);
        var next;
        if (index < 0) {
          var after = lowerBound(current + 1);
          next = by > 0 ? Math.min(after, total - 1) : Math.max(after - 1, 0);
        } else {
          next = Math.max(0, Math.min(total - 1, index + by));
        }
        select(stepAt(next));
      }

      function applyFilter() {
        var query = filter.value.trim().toLowerCase();
        if (query === '') {
          visible = null;
        } else {
          var matches = new Uint8Array(events.length / 2);
          for (var event = 0; event < matches.length; event++) {
            if (lowered[event] === undefined) {
              lowered[event] = texts[events[event * 2 + 1]].toLowerCase();
            }
            matches[event] = lowered[event].indexOf(query) >= 0 ? 1 : 0;
          }
          var kept = [];
          for (var step = 1; step <= count; step++) {
            if (matches[eventOf(step)]) { kept.push(step); }
          }
          visible = kept;
        }
        filtered += 1;
        var total = count === 1 ? '1 step' : count + ' steps';
        shown.textContent = query === '' ? total : visible.length + ' of ' + total;
        var index = positionOf(current);
        if (index >= 0) {
          reveal(index);
        } else {
          scroller.scrollTop = 0;
          renderRows();
        }
      }

      list.addEventListener('click', function (event) {
        var item = event.target.closest('li');
        if (item) { select(Number(item.getAttribute('data-step'))); }
      });
      document.getElementById('initial-link').addEventListener('click', function () { select(0); });
      var explored = document.getElementById('explored');
      if (explored) {
        explored.addEventListener('click', function (event) {
          var node = event.target.closest('g.node.visited');
          if (node) { jumpTo(node); return; }
          var move = event.target.closest('g.hop, li.visited');
          if (move) { select(Number(move.getAttribute('data-step'))); }
        });
      }
      filter.addEventListener('input', applyFilter);
      scroller.addEventListener('scroll', renderRows);
      window.addEventListener('resize', renderRows);
      document.addEventListener('keydown', function (event) {
        if (event.target === filter && event.key !== 'ArrowDown' && event.key !== 'ArrowUp') {
          return;
        }
        var moves = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1, PageDown: 20, PageUp: -20 };
        if (event.key in moves) {
          move(moves[event.key]);
          event.preventDefault();
        } else if (event.key === 'Home' || event.key === 'End') {
          var total = visibleCount();
          if (total > 0) { select(stepAt(event.key === 'Home' ? 0 : total - 1)); }
          event.preventDefault();
        }
      });

      function shownSections() {
        return Array.prototype.slice.call(details.querySelectorAll('section.detail'));
      }

      // Clicks step's row, as a user would once it is scrolled into view.
      function clickRow(step) {
        var index = positionOf(step);
        if (index < 0) { return false; }
        reveal(index);
        var item = list.querySelector('li[data-step="' + step + '"]');
        if (!item) { return false; }
        item.click();
        return true;
      }

      // The time at `fraction` of the way from the fastest to the slowest.
      function quantile(times, fraction) {
        var sorted = times.slice().sort(function (a, b) { return a - b; });
        return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) * fraction)];
      }

      // Times `action` and the layout it causes, in milliseconds.
      function timed(action) {
        var start = performance.now();
        action();
        void details.offsetHeight;
        void list.offsetHeight;
        return performance.now() - start;
      }

      // Checks the page as a user would use it; every check is one pass over the steps at most.
      function selfTest() {
        var problems = [];
        var expected = Number(document.body.dataset.steps);
        if (count !== expected) {
          problems.push('the page has ' + count + ' steps, not ' + expected);
        }
        var broken = 0;
        var changed = 0;
        for (var at = 0; at < rows.length; at += 4) {
          var fine = rows[at] >= 0 && rows[at] * 2 + 1 < events.length &&
            rows[at + 1] >= 0 && rows[at + 1] < lists.length &&
            rows[at + 2] >= -1 && rows[at + 2] < texts.length &&
            rows[at + 3] >= 0 && rows[at + 3] < texts.length;
          if (!fine) { broken += 1; }
          if (rows[at + 2] >= 0) { changed += 1; }
        }
        if (broken > 0) { problems.push(broken + ' steps refer to texts the page does not have'); }
        var clicked = 0;
        var timing = '';
        if (count > 0) {
          // The step in the middle of those that changed the state, else the middle one.
          var target = 0;
          var skip = Math.floor(changed / 2);
          for (var step = 1; step <= count && target === 0; step++) {
            if (hasDiff(step)) {
              if (skip === 0) { target = step; } else { skip -= 1; }
            }
          }
          if (target === 0) { target = Math.floor(count / 2) + 1; }
          clicked = target;

          // A click and an arrow key cost the same however many steps there are: time a few.
          var clicks = [];
          var keys = [];
          var tries = Math.min(15, count);
          // NB: a page this slow has shown it after 3 of each, past 2 seconds.
          var spent = 0;
          for (var i = 0; i < tries && (i < 3 || spent < 2000); i++) {
            var spot = 1 + Math.floor(i * (count - 1) / Math.max(1, tries - 1));
            var index = positionOf(spot);
            reveal(index);
            var item = list.querySelector('li[data-step="' + spot + '"]');
            // NB: the rows scrolled to are laid out first, as a user's scroll would have them.
            void list.offsetHeight;
            if (item) { clicks.push(timed(function () { item.click(); })); }
            var name = i % 2 === 0 ? 'ArrowDown' : 'ArrowUp';
            keys.push(timed(function () { key(name); }));
            spent += (clicks[clicks.length - 1] || 0) + keys[keys.length - 1];
          }
          // NB: the fastest of each decides, so that a busy machine's pauses do not count: work
          // proportional to the number of steps makes every one of them slow.
          var clickTime = quantile(clicks, 0);
          var keyTime = quantile(keys, 0);
          if (clickTime >= 16) {
            problems.push('a click takes ' + clickTime.toFixed(1) + ' ms (the fastest of ' +
              clicks.length + '), not under 16');
          }
          if (keyTime >= 16) {
            problems.push('an arrow key takes ' + keyTime.toFixed(1) + ' ms (the fastest of ' +
              keys.length + '), not under 16');
          }
          timing = ' click=' + clickTime.toFixed(2) + 'ms key=' + keyTime.toFixed(2) +
            'ms medians=' + quantile(clicks, 0.5).toFixed(2) + 'ms,' +
            quantile(keys, 0.5).toFixed(2) + 'ms';

          select(0);
          clickRow(clicked);
          var open = shownSections();
          if (open.length !== 1 || open[0].dataset.step !== String(clicked)) {
            problems.push('clicking step ' + clicked + ' shows ' + open.length + ' sections');
          } else {
            var diff = open[0].querySelector('pre.diff');
            if (changed > 0 && !(diff && diff.querySelector('.add, .del'))) {
              problems.push('step ' + clicked + ' shows no diff');
            }
            if (open[0].querySelector('h2').textContent !== 'Step ' + clicked) {
              problems.push('step ' + clicked + ' shows the heading of another step');
            }
          }
          var marked = list.querySelectorAll('li.selected');
          if (marked.length !== 1 || marked[0].getAttribute('data-step') !== String(clicked)) {
            problems.push('step ' + clicked + ' is not marked in the timeline');
          }
          if (list.children.length === 0 || list.children.length > 200) {
            problems.push('the timeline draws ' + list.children.length + ' rows');
          }
          key('ArrowDown');
          var afterDown = current;
          key('ArrowUp');
          if (clicked < count && afterDown !== clicked + 1) {
            problems.push('the down arrow went from ' + clicked + ' to ' + afterDown);
          }
          if (current !== clicked) {
            problems.push('the up arrow went back to ' + current + ', not ' + clicked);
          }
          filter.value = lineOf(clicked);
          applyFilter();
          if (positionOf(clicked) < 0 || visibleCount() === 0) {
            problems.push('filtering by the event of step ' + clicked + ' hides it');
          }
          filter.value = 'no event has this text \u2603';
          applyFilter();
          if (visibleCount() !== 0 || list.children.length !== 0) {
            problems.push('a filter that matches nothing shows steps');
          }
          filter.value = '';
          applyFilter();
        }
        var drawn = '';
        if (diagram) {
          var listed = document.querySelectorAll('#explored ol > li').length;
          var states = Number(diagram.getAttribute('data-states'));
          var edges = diagram.querySelectorAll('g.edge').length;
          if (nodes.length !== states || nodes.length !== listed) {
            problems.push('the diagram has ' + nodes.length + ' states, the list ' + listed);
          }
          if (edges !== Number(diagram.getAttribute('data-edges'))) {
            problems.push('the diagram has ' + edges + ' arrows, not ' +
              diagram.getAttribute('data-edges'));
          }
          var visited = nodes.filter(function (node) { return node.visits.length > 0; });
          var jumped = -1;
          var node = visited.filter(function (node) { return node.visits[0] !== current; }).pop();
          if (visited.length === 0) {
            problems.push('the diagram shows no visited state');
          } else if (node) {
            jumped = node.visits[0];
            node.querySelector('circle').dispatchEvent(new MouseEvent('click', { bubbles: true }));
            var shownNow = shownSections();
            if (current !== jumped || shownNow.length !== 1 ||
                shownNow[0].dataset.step !== String(jumped)) {
              problems.push('clicking state ' + node.getAttribute('data-node') + ' shows step ' +
                current + ', not ' + jumped);
            }
            if (!node.classList.contains('current')) {
              problems.push('the clicked state ' + node.getAttribute('data-node') + ' is not marked');
            }
          }
          drawn = ' nodes=' + nodes.length + ' edges=' + edges + ' jumped=' + jumped;
        }
        if (count > 0) { select(clicked); }
        var verdict = problems.length === 0
          ? 'PASS steps=' + count + ' clicked=' + clicked + drawn + timing
          : 'FAIL ' + problems.join('; ');
        var output = document.getElementById('selftest');
        output.textContent = verdict;
        output.hidden = false;
        console.log('inspector self-test: ' + verdict);
      }

      function key(name) {
        document.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }));
      }

      window.addEventListener('hashchange', function () {
        var link = /^#step-(\d+)$/.exec(window.location.hash);
        if (link) { select(Number(link[1])); }
      });

      var hash = window.location.hash;
      var deepLink = /^#step-(\d+)$/.exec(hash);
      if (!(deepLink && select(Number(deepLink[1])))) {
        select(count > 0 ? 1 : 0);
      }
      if (hash === '#selftest') { selfTest(); }
    })();
  """#

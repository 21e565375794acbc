// The inspector page's style sheet and script, inline in every page: a page must open with no
// network and no other file.
//
// The script reads everything from the document (the timeline's entries and the steps' sections,
// each with its number in `data-step`) and writes only by showing, hiding and marking elements:
// it never turns text into markup. With `#selftest` in its URL it checks itself, as a user would
// click and type (and, with a diagram, click a visited state), and writes `PASS steps=N clicked=K`
// (then `nodes=S edges=E jumped=J` with a diagram) or `FAIL reasons` into `#selftest`, where a
// headless browser's dump of the document shows it (.ci/inspector-browser.sh).

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
  ol#steps { list-style: none; margin: 0; padding: 0; overflow-y: auto; flex: 1; }
  ol#steps li { display: flex; gap: 8px; padding: 2px 8px; cursor: pointer; \
  border-bottom: 1px solid var(--line); white-space: nowrap; overflow: hidden; }
  ol#steps li:hover { background: #8881; }
  ol#steps li.selected { background: var(--pick); }
  ol#steps li.same code { opacity: .55; }
  ol#steps li .n { color: var(--muted); min-width: 3.5em; text-align: right; }
  ol#steps li code { overflow: hidden; text-overflow: ellipsis; }
  #details { flex: 1; overflow: auto; padding: 12px 16px; }
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
    var items = Array.prototype.slice.call(document.querySelectorAll('#steps > li'));
    var sections = Array.prototype.slice.call(document.querySelectorAll('#details > section.detail'));
    var filter = document.getElementById('filter');
    var shown = document.getElementById('shown');
    var current = 0;

    function sectionOf(step) {
      for (var i = 0; i < sections.length; i++) {
        if (sections[i].dataset.step === String(step)) { return sections[i]; }
      }
      return null;
    }

    function select(step) {
      var target = sectionOf(step);
      if (!target) { return false; }
      sections.forEach(function (section) { section.hidden = section !== target; });
      items.forEach(function (item) {
        var isSelected = item.dataset.step === String(step);
        item.classList.toggle('selected', isSelected);
        item.setAttribute('aria-selected', isSelected ? 'true' : 'false');
        if (isSelected) { item.scrollIntoView({ block: 'nearest' }); }
      });
      current = step;
      markNode(step);
      return true;
    }

    // The diagram of the explored states, if the page has one: each visited state's steps.
    var diagram = document.getElementById('diagram-graph');
    var nodes = diagram ? Array.prototype.slice.call(diagram.querySelectorAll('g.node')) : [];
    var nodeOfStep = {};
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

    function jumpTo(node) {
      var index = node.visits.indexOf(current);
      select(node.visits[index < 0 ? 0 : (index + 1) % node.visits.length]);
    }

    function visibleItems() {
      return items.filter(function (item) { return !item.hidden; });
    }

    function move(by) {
      var visible = visibleItems();
      if (visible.length === 0) { return; }
      var index = -1;
      for (var i = 0; i < visible.length; i++) {
        if (Number(visible[i].dataset.step) === current) { index = i; }
      }
      var next;
      if (index < 0) {
        next = by > 0
          ? visible.find(function (item) { return Number(item.dataset.step) > current; })
          : visible.slice().reverse().find(function (item) {
              return Number(item.dataset.step) < current;
            });
        next = next || (by > 0 ? visible[visible.length - 1] : visible[0]);
      } else {
        next = visible[Math.max(0, Math.min(visible.length - 1, index + by))];
      }
      select(Number(next.dataset.step));
    }

    function applyFilter() {
      var query = filter.value.trim().toLowerCase();
      var count = 0;
      items.forEach(function (item) {
        var text = item.querySelector('.event').textContent.toLowerCase();
        item.hidden = query !== '' && text.indexOf(query) < 0;
        if (!item.hidden) { count += 1; }
      });
      var total = items.length === 1 ? '1 step' : items.length + ' steps';
      shown.textContent = query === '' ? total : count + ' of ' + total;
    }

    document.getElementById('steps').addEventListener('click', function (event) {
      var item = event.target.closest('li');
      if (item) { select(Number(item.dataset.step)); }
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
    document.addEventListener('keydown', function (event) {
      if (event.target === filter && event.key !== 'ArrowDown' && event.key !== 'ArrowUp') {
        return;
      }
      var moves = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1, PageDown: 20, PageUp: -20 };
      if (event.key in moves) {
        move(moves[event.key]);
        event.preventDefault();
      } else if (event.key === 'Home' || event.key === 'End') {
        var visible = visibleItems();
        if (visible.length > 0) {
          select(Number(visible[event.key === 'Home' ? 0 : visible.length - 1].dataset.step));
        }
        event.preventDefault();
      }
    });

    function selfTest() {
      var problems = [];
      var expected = Number(document.body.dataset.steps);
      if (items.length !== expected) {
        problems.push('the timeline has ' + items.length + ' steps, not ' + expected);
      }
      if (sections.length !== expected + 1) {
        problems.push('the page has ' + sections.length + ' sections, not ' + (expected + 1));
      }
      var clicked = 0;
      if (items.length > 0) {
        var changed = items.filter(function (item) {
          var section = sectionOf(item.dataset.step);
          return section && section.querySelector('pre.diff');
        });
        var target = changed[Math.floor(changed.length / 2)] || items[Math.floor(items.length / 2)];
        clicked = Number(target.dataset.step);
        target.click();
        var open = sections.filter(function (section) { return !section.hidden; });
        if (open.length !== 1 || open[0].dataset.step !== String(clicked)) {
          problems.push('clicking step ' + clicked + ' shows ' + open.length + ' sections');
        } else {
          var diff = open[0].querySelector('pre.diff');
          if (changed.length > 0 && !(diff && diff.querySelector('.add, .del'))) {
            problems.push('step ' + clicked + ' shows no diff');
          }
          if (open[0].querySelector('h2').textContent !== 'Step ' + clicked) {
            problems.push('step ' + clicked + ' shows the heading of another step');
          }
        }
        if (!target.classList.contains('selected')) {
          problems.push('step ' + clicked + ' is not marked in the timeline');
        }
        var key = function (name) {
          document.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }));
        };
        key('ArrowDown');
        var afterDown = current;
        key('ArrowUp');
        if (clicked < items.length && afterDown !== clicked + 1) {
          problems.push('the down arrow went from ' + clicked + ' to ' + afterDown);
        }
        if (current !== clicked) {
          problems.push('the up arrow went back to ' + current + ', not ' + clicked);
        }
        filter.value = target.querySelector('.event').textContent;
        applyFilter();
        if (target.hidden || visibleItems().length === 0) {
          problems.push('filtering by the event of step ' + clicked + ' hides it');
        }
        filter.value = 'no event has this text \u2603';
        applyFilter();
        if (visibleItems().length !== 0) { problems.push('a filter that matches nothing shows steps'); }
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
          var shownNow = sections.filter(function (section) { return !section.hidden; });
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
      if (items.length > 0) { select(clicked); }
      var verdict = problems.length === 0
        ? 'PASS steps=' + items.length + ' clicked=' + clicked + drawn
        : 'FAIL ' + problems.join('; ');
      var output = document.getElementById('selftest');
      output.textContent = verdict;
      output.hidden = false;
      console.log('inspector self-test: ' + verdict);
    }

    window.addEventListener('hashchange', function () {
      var link = /^#step-(\d+)$/.exec(window.location.hash);
      if (link) { select(Number(link[1])); }
    });

    var hash = window.location.hash;
    var deepLink = /^#step-(\d+)$/.exec(hash);
    if (!(deepLink && select(Number(deepLink[1])))) {
      select(items.length > 0 ? 1 : 0);
    }
    if (hash === '#selftest') { selfTest(); }
  })();
  """#

// The status page's one renderer: status-page.html is a static skeleton, and this script draws everything in it from
// the JSON status, at once and then every few seconds. Every name is set with textContent (never as markup). The
// chart's geometry is the skeleton's SVG grid: change both together.
(function () {
  'use strict';
  var W = 960, H = 220, LEFT = 40, RIGHT = 10, TOP = 10, BOTTOM = 24, MIN_SPAN = 60;
  var SVG = 'http://www.w3.org/2000/svg';
  var timer = null, refreshes = 0, durationSet = false;
  // Spring Security's CSRF token, when the application has one: each status answer brings it (asked for with the
  // CpuProfiler-Csrf header) as the header name and the value the POST must send back.
  var csrf = null;

  function $(id) { return document.getElementById(id); }
  function text(id, value) { var e = $(id); if (e) { e.textContent = value; } }
  function el(tag, cls, value) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (value !== undefined) { e.textContent = value; }
    return e;
  }
  function svgEl(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  function pct(p) { return p === null || p === undefined ? '\u2013' : p.toFixed(1) + '%'; }
  function num(n) { return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100); }
  function isoSeconds(d) {
    var m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?$/.exec(d || '');
    return m ? (+(m[1] || 0)) * 3600 + (+(m[2] || 0)) * 60 + (+(m[3] || 0)) : 0;
  }
  function seconds(d) {
    if (!d) { return '\u2013'; }
    var s = Math.max(0, Math.round(isoSeconds(d)));
    if (s >= 3600) { return Math.floor(s / 3600) + ' h ' + Math.floor(s % 3600 / 60) + ' min'; }
    return s >= 60 ? Math.floor(s / 60) + ' min ' + s % 60 + ' s' : s + ' s';
  }
  // Java's instants carry up to nine decimals; Date.parse is only sure of three.
  function parse(iso) { return Date.parse(iso.replace(/(\.\d{3})\d+/, '$1')); }
  function time(iso) {
    return iso ? new Date(parse(iso)).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '\u2013';
  }
  // Rates, costs and counts as a person reads them: 15, 3.1, 0.25, 3,120.
  function figure(n) {
    if (n === null || n === undefined) { return '\u2013'; }
    var a = Math.abs(n);
    return n.toLocaleString('en-US', a >= 100 ? { maximumFractionDigits: 0 } : a >= 1 ? { maximumFractionDigits: 1 }
      : { maximumSignificantDigits: 2 });
  }
  // How long ago, by the server's clock (the status's history.at) when it has one, so a skewed laptop clock reads right.
  function ago(iso, nowIso) {
    var s = Math.max(0, Math.round(((nowIso ? parse(nowIso) : Date.now()) - parse(iso)) / 1000));
    if (s < 60) { return s + ' s ago'; }
    if (s < 3600) { return Math.floor(s / 60) + ' min ago'; }
    if (s < 86400) { return Math.floor(s / 3600) + ' h ' + Math.floor(s % 3600 / 60) + ' min ago'; }
    return Math.floor(s / 86400) + ' d ago';
  }
  function profileUrl(id, query) { return 'cpuprofiler/' + encodeURIComponent(id) + (query ? '?' + query : ''); }
  function label(l) {
    return { CPU_BOUND: 'CPU-bound', MIXED: 'mixed', MOSTLY_WAITING: 'mostly waiting' }[l] || l;
  }

  function stateDetail(s) {
    var session = s.session, t = s.trigger || {};
    if (session) {
      return 'profiling (' + session.trigger + ', ' + session.engine + '): ' + seconds(session.elapsed) + ' of ' +
        seconds(session.duration) + ', ' + session.samples + ' samples';
    }
    if (!t.enabled) { return 'trigger off: monitoring only, on-demand profiles work'; }
    if (s.state === 'COOLDOWN' && t.cooldownRemaining) { return 'cooldown, ' + seconds(t.cooldownRemaining) + ' left'; }
    if (t.startupGraceRemaining) {
      return 'monitoring; the trigger waits for the start-up grace, ' + seconds(t.startupGraceRemaining) + ' left';
    }
    return s.state.toLowerCase();
  }

  function cards(s) {
    var cpu = s.cpu, l = s.lookback;
    var state = $('state');
    state.textContent = s.state;
    state.className = 'badge state-' + s.state.toLowerCase();
    document.title = 'CPU profiler: ' + s.state;
    text('card-state', stateDetail(s));
    text('card-cpu', pct(cpu.latestPercent) + ' of ' + num(cpu.effectiveCpuCount) + ' CPUs');
    text('card-average', pct(cpu.averagePercent) + ' / ' + pct(cpu.thresholdPercent));
    // How close it came: under the threshold, a user sees how far the app is from firing.
    text('card-highest', cpu.highestAveragePercent === null ? '' : 'highest in the last ' +
      seconds(cpu.keptHistory) + ': ' + pct(cpu.highestAveragePercent) + ' of ' + pct(cpu.thresholdPercent));
    text('card-saturation', saturation(s.saturation));
    text('card-source', cpu.source + ', ' + num(cpu.effectiveCpuCount) + ' effective CPUs (' + cpu.effectiveCpuOrigin +
      ')' + (cpu.fallbackReason ? '; ' + cpu.fallbackReason : ''));
    text('card-lookback', l ? l.state + (l.reason ? ': ' + l.reason : '') : '\u2013');
    reference(s);
    text('updated', time(s.history && s.history.at));
  }

  // The reference of normal every new profile is compared with: its age links to its flame graph.
  function reference(s) {
    var card = $('card-reference'), r = s.reference;
    while (card.firstChild) { card.removeChild(card.firstChild); }
    if (!r) {
      card.textContent = 'None yet: recorded while the application is calm';
      return;
    }
    var a = el('a', '', 'recorded ' + ago(r.recordedAt, s.history && s.history.at));
    a.href = profileUrl(r.id, 'format=html');
    a.title = r.id;
    card.appendChild(a);
    card.appendChild(document.createTextNode(' (' + figure(r.samples) + ' samples)'));
  }

  // One thread pinned at a core shows as a low CPU% on many CPUs: this card shows it beside the CPU.
  function saturation(t) {
    if (!t) { return '\u2013'; }
    var hottest = t.thread === null ? 'no application thread busy' : t.thread + ' ' + pct(t.percentOfCore) +
      ' of a core over ' + seconds(t.window);
    var trigger = !t.enabled ? 'trigger off' : t.aboveFor ? 'at or above ' + pct(t.thresholdPercent) + ' for ' +
      seconds(t.aboveFor) : 'threshold ' + pct(t.thresholdPercent);
    return hottest + ' / ' + trigger;
  }

  function chart(s) {
    var h = s.history, svg = $('cpu-chart');
    if (!svg || !h) { return; }
    var at = parse(h.at), span = MIN_SPAN;
    h.samples.forEach(function (p) { span = Math.max(span, -p[0]); });
    h.baseline.forEach(function (b) { span = Math.max(span, -b[0]); });
    function x(sec) { return Math.max(LEFT, Math.min(W - RIGHT, LEFT + (W - LEFT - RIGHT) * (1 + sec / span))); }
    function y(p) { return TOP + (H - TOP - BOTTOM) * (1 - Math.max(0, Math.min(100, p)) / 100); }
    function rel(iso) { return iso ? Math.min(0, (parse(iso) - at) / 1000) : 0; }
    function r(v) { return Math.round(v * 10) / 10; }
    var labels = svg.querySelectorAll('.grid text');
    for (var i = 0; i <= 4; i++) {
      var ago = span * (4 - i) / 4, t = labels[5 + i];
      if (t) {
        t.setAttribute('x', r(x(-ago)));
        t.textContent = ago === 0 ? 'now' : '-' + (ago >= 120 ? Math.round(ago / 60) + ' min' : Math.round(ago) + ' s');
      }
    }
    var sessions = $('chart-sessions');
    while (sessions.firstChild) { sessions.removeChild(sessions.firstChild); }
    var spans = s.profiles.map(function (p) { return [rel(p.startedAt), rel(p.endedAt)]; });
    if (s.session) { spans.push([rel(s.session.startedAt), 0]); }
    spans.forEach(function (sp) {
      var x1 = x(sp[0]), x2 = x(sp[1]);
      if (x2 > LEFT) {
        sessions.appendChild(svgEl('rect', { 'class': 'session', x: r(x1), y: TOP, width: r(Math.max(1, x2 - x1)),
          height: H - TOP - BOTTOM }));
      }
    });
    $('chart-baseline').setAttribute('d', h.baseline.map(function (b, n) {
      return (n ? 'L' : 'M') + r(x(b[0])) + ' ' + r(y(b[2])) + 'H' + r(x(b[1]));
    }).join(''));
    $('chart-samples').setAttribute('points', h.samples.map(function (p) {
      return r(x(p[0])) + ',' + r(y(p[1]));
    }).join(' '));
    var ty = r(y(s.cpu.thresholdPercent)), line = $('chart-threshold'), tl = $('chart-threshold-label');
    line.setAttribute('y1', ty);
    line.setAttribute('y2', ty);
    tl.setAttribute('y', r(ty - 4));
    tl.textContent = 'threshold ' + num(s.cpu.thresholdPercent) + '%';
  }

  function onDemand(s) {
    var o = s.onDemand || {};
    $('start-form').hidden = !o.allowed;
    $('writes-off').hidden = !!o.allowed;
    if (o.allowed && !durationSet && o.defaultDuration) {
      $('duration').value = String(Math.max(1, Math.round(isoSeconds(o.defaultDuration))));
      durationSet = true;
    }
  }

  function session(s) {
    var p = s.session, bar = $('session-progress');
    text('session', p ? 'Recording ' + p.id + ': ' + seconds(p.elapsed) + ' of ' + seconds(p.duration) + ', ' +
      p.samples + ' samples' : 'No profile is recording.');
    bar.hidden = !p;
    bar.value = p ? Math.min(1, isoSeconds(p.elapsed) / Math.max(0.001, isoSeconds(p.duration))) : 0;
    var start = $('start');
    if (start) { start.disabled = !!p; }
  }

  function row(cells) {
    var tr = document.createElement('tr');
    cells.forEach(function (c) { tr.appendChild(c); });
    return tr;
  }
  function replaceRows(id, rows, empty, columns) {
    var body = $(id);
    while (body.firstChild) { body.removeChild(body.firstChild); }
    if (!rows.length) {
      var td = el('td', 'muted', empty);
      td.colSpan = columns;
      body.appendChild(row([td]));
    }
    rows.forEach(function (r) { body.appendChild(r); });
  }

  function threads(s) {
    replaceRows('threads', s.threads.map(function (t) {
      return row([el('td', 'name', t.name), el('td', 'num', pct(t.cpuPercent)), el('td', '', label(t.label))]);
    }), 'No thread used CPU lately.', 3);
  }

  function latest(s) {
    var dl = $('latest'), p = s.latestProfile;
    while (dl.firstChild) { dl.removeChild(dl.firstChild); }
    function item(term, value) { dl.appendChild(el('dt', '', term)); dl.appendChild(el('dd', '', value)); }
    if (!p) {
      item('none yet', 'A profile appears when the average passes the threshold, or on demand.');
      return;
    }
    item('Profile', p.id + ' (' + p.trigger + ', ' + p.engine + ')');
    // A LATENCY profile names its slow endpoints first: the verdict, the 95th percentile, the top wait.
    (p.latency ? p.latency.endpoints : []).forEach(function (e) {
      if (e.verdict === 'UNCHANGED') { return; }
      var w = e.waits && e.waits[0];
      item('Slow endpoint', e.endpoint + ': ' + e.verdict + ', 95th percentile ' + num(e.p95Millis) + ' ms' +
        (w ? '; waits ' + num(w.millisPerRequest) + ' ms per request on ' + w.kind + ' at ' + w.frame : ''));
    });
    item('CPU while recording', pct(p.cpuPercent) + ': the whole process (or container), GC, JIT and the profiler ' +
      'included, of the effective CPUs');
    var hot = p.hotMethods && p.hotMethods[0];
    item('Hot method', hot ? hot.method + ' (' + pct(hot.selfPercent) + ' self)' : '\u2013');
    if (p.concurrency) {
      item('Utilization', pct(p.concurrency.utilization * 100) + ' of ' + num(p.concurrency.effectiveCpus) +
        ' CPUs: the Java threads alone (no GC or JIT thread), from their own CPU time');
      item('Bottleneck', pct(p.concurrency.bottleneck * 100) + ' of the time at least one thread ran');
    }
  }

  // What changed: the latest profile against the reference of normal (its comparison), one sentence per endpoint,
  // then the methods whose self time grew most. Without a comparison, one calm line says why; no profile, no box.
  var MORE_THAN_NOISE = { COST: 1, TRAFFIC: 1, BOTH: 1, NEW: 1 };
  // Unchanged endpoints are listed quietly; past this many they fold.
  var UNCHANGED_SHOWN = 3;
  // Methods listed (the comparison brings up to ten).
  var METHODS_SHOWN = 5;
  // A rate or cost that fell this far is named rather than called "the same": the comparator's growth floor
  // (ProfileComparator.GROWTH_FLOOR, 1.5) mirrored, so "the same" means what the verdict means.
  var FELL = 1 / 1.5;

  function times(ratio) { return ratio.toFixed(1) + '\u00d7'; }
  function rates(c) { return figure(c.reference) + ' \u2192 ' + figure(c.profile) + ' a second'; }
  function costs(c) { return figure(c.reference) + ' \u2192 ' + figure(c.profile) + ' ms CPU'; }
  function fell(c) { return c.ratio !== null && c.ratio !== undefined && c.ratio < FELL; }
  function sentence(e) {
    var r = e.requestsPerSecond, c = e.cpuPerRequestMillis;
    var atRate = fell(r) ? 'at a lower rate (' + rates(r) + ')' : 'at the same rate';
    var atCost = fell(c) ? 'at a lower cost each (' + costs(c) + ')' : 'at the same cost each';
    switch (e.verdict) {
      case 'COST': return 'each request costs ' + times(c.ratio) + ' more (' + costs(c) + ') ' + atRate;
      case 'TRAFFIC': return times(r.ratio) + ' the requests (' + rates(r) + ') ' + atCost;
      case 'BOTH': return times(r.ratio) + ' the requests (' + rates(r) + ') and each costs ' + times(c.ratio) +
        ' more (' + costs(c) + ')';
      case 'NEW': return 'new, not in the reference (' + figure(r.profile) + ' a second, ' + figure(c.profile) +
        ' ms CPU each)';
      default: return 'unchanged (' + rates(r) + ', ' + costs(c) + ' each)';
    }
  }
  function change(e) {
    var li = el('li', 'change verdict-' + String(e.verdict).toLowerCase());
    li.appendChild(el('span', 'endpoint', e.endpoint));
    li.appendChild(document.createTextNode(': ' + sentence(e)));
    return li;
  }
  function clear(id) { var e = $(id); while (e.firstChild) { e.removeChild(e.firstChild); } return e; }

  function whatChanged(s) {
    var p = s.latestProfile, c = p && p.comparison, part = $('changed-part');
    var list = clear('changed-endpoints'), folded = clear('changed-unchanged-list');
    part.hidden = !p;
    $('changed-flame').hidden = $('changed-collapsed').hidden = !c;
    $('changed-unchanged').hidden = $('changed-methods-part').hidden = true;
    if (!p) { return; }
    if (!c) {
      text('changed-against', p.trigger === 'REFERENCE' ? 'The latest profile is a reference of normal: the next '
        + 'ones are compared with it.' : s.reference ? 'Not compared with normal: it started before the reference '
        + 'of normal was recorded.' : 'Not compared with normal: no reference of normal yet (one is recorded while '
        + 'the application is calm).');
      return;
    }
    text('changed-against', 'Profile ' + p.id + ' against the reference of normal ' + c.reference +
      ', per second and per request of each.');
    $('changed-flame').href = profileUrl(p.id, 'format=html&compare=reference');
    $('changed-collapsed').href = profileUrl(p.id, 'format=collapsed&compare=reference');
    var grew = c.endpoints.filter(function (e) { return MORE_THAN_NOISE[e.verdict]; });
    var same = c.endpoints.filter(function (e) { return !MORE_THAN_NOISE[e.verdict]; });
    grew.forEach(function (e) { list.appendChild(change(e)); });
    if (!c.endpoints.length) {
      list.appendChild(el('li', 'muted', 'No request ended while it recorded: nothing to compare by endpoint.'));
    } else if (!grew.length) {
      list.appendChild(el('li', 'muted', 'No endpoint changed beyond the noise.'));
    }
    if (same.length > UNCHANGED_SHOWN) {
      $('changed-unchanged').hidden = false;
      text('changed-unchanged-count', same.length + ' endpoints unchanged');
      same.forEach(function (e) { folded.appendChild(change(e)); });
    } else {
      same.forEach(function (e) { list.appendChild(change(e)); });
    }
    $('changed-methods-part').hidden = false;
    replaceRows('changed-methods', c.methods.slice(0, METHODS_SHOWN).map(function (m) {
      return row([el('td', 'name', m.method), el('td', 'num', pct(m.referencePercent) + ' \u2192 ' + pct(m.percent)),
        el('td', 'num', '+' + m.delta.toFixed(1))]);
    }), 'No method\'s self time grew.', 3);
  }

  function endpoints(s) {
    var p = s.latestProfile, list = p && p.endpoints ? p.endpoints : [];
    var why = p && p.notes ? p.notes.filter(function (n) { return n.indexOf('no endpoints') === 0; })[0] : null;
    var link = $('endpoints-flame');
    link.hidden = !list.length;
    if (list.length) { link.href = 'cpuprofiler/' + encodeURIComponent(p.id) + '?format=html&group=endpoint'; }
    replaceRows('endpoints', list.map(function (e) {
      return row([el('td', 'name', e.endpoint), el('td', 'num', pct(e.percent)),
        el('td', 'num', e.requests === null ? '\u2013' : String(e.requests)),
        el('td', 'num', e.cpuPerRequestMillis === null ? '\u2013' : num(e.cpuPerRequestMillis) + ' ms')]);
    }), !p ? 'No profile yet.' : why ? why.charAt(0).toUpperCase() + why.slice(1) + '.' : 'No requests in it.', 4);
  }

  function traces(s) {
    var list = s.latestProfile && s.latestProfile.hottestTraces ? s.latestProfile.hottestTraces : [];
    $('traces-part').hidden = !list.length;
    var template = s.onDemand && s.onDemand.traceUrlTemplate;
    replaceRows('traces', list.map(function (t) {
      var id = el('td', 'name', template ? '' : t.traceId);
      if (template) {
        var a = el('a', '', t.traceId);
        a.href = template.split('{traceId}').join(encodeURIComponent(t.traceId));
        a.rel = 'noreferrer';
        id.appendChild(a);
      }
      return row([id, el('td', 'name', t.endpoint), el('td', 'num', String(t.samples)),
        el('td', 'num', num(t.cpuMillis) + ' ms')]);
    }), '', 4);
  }

  function profiles(s) {
    replaceRows('profiles', s.profiles.map(function (p) {
      var base = 'cpuprofiler/' + encodeURIComponent(p.id), links = el('td', 'links');
      // The files are saved under the profile's name (the endpoint names no file: no Content-Disposition).
      [['html', 'flame graph'], ['text', 'text'], ['collapsed', 'collapsed'], ['pprof', 'pprof', p.id + '.pb.gz']]
        .concat(p.jfrFile ? [['jfr', 'jfr', p.jfrFile]] : []).forEach(function (f) {
          var a = el('a', '', f[1]);
          a.href = base + '?format=' + f[0];
          if (f[2]) { a.download = f[2]; }
          links.appendChild(a);
          links.appendChild(document.createTextNode(' '));
        });
      return row([el('td', '', time(p.startedAt)), el('td', '', p.trigger), el('td', '', p.engine),
        el('td', 'num', seconds(p.duration)), el('td', 'num', String(p.samples)),
        el('td', 'name', p.hotMethod || '\u2013'), links]);
    }), 'None recorded yet.', 7);
  }

  function render(s) {
    cards(s);
    chart(s);
    onDemand(s);
    session(s);
    threads(s);
    latest(s);
    whatChanged(s);
    endpoints(s);
    traces(s);
    profiles(s);
  }

  // Draws the page from a fresh status; the promise ends when it is drawn or the failure is shown.
  function refresh() {
    // X-Requested-With: behind Spring Security, an expired login answers 401 without a browser's password prompt.
    return fetch('cpuprofiler', { headers: { Accept: 'application/json', 'CpuProfiler-Csrf': 'ask',
      'X-Requested-With': 'XMLHttpRequest' }, cache: 'no-store' })
      .then(function (r) {
        if (!r.ok) {
          throw new Error('status answered ' + r.status + (r.status === 401 || r.status === 403
            ? ' (not logged in, or no longer: reload the page to log in)' : ''));
        }
        var name = r.headers.get('CpuProfiler-Csrf-Header');
        csrf = name ? { name: name, token: r.headers.get('CpuProfiler-Csrf-Token') } : null;
        return r.json();
      })
      .then(function (s) {
        render(s);
        text('refresh-error', '');
        // How many refreshes drew the page: tells a test (or a curious reader of the DOM) that the script works.
        document.body.setAttribute('data-refreshes', String(++refreshes));
        schedule(s.session ? 1000 : 5000);
      })
      .catch(function (e) {
        text('refresh-error', 'Refresh failed: ' + e.message + '; retrying.');
        schedule(10000);
      });
  }
  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(refresh, ms);
  }

  // The on-demand POST, with Spring Security's CSRF token when there is one. A 403 with a token may mean the token
  // is older than the one Spring Security holds now (the cookie repository's, after another tab or a new login made
  // one): the status is fetched again, which brings the current token, and the POST is sent once more.
  function startProfile(secs, retried) {
    var headers = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
    if (csrf) { headers[csrf.name] = csrf.token; }
    return fetch('cpuprofiler?duration=' + secs + 's', { method: 'POST', headers: headers })
      .then(function (r) {
        if (r.status === 403 && csrf && !retried) {
          return refresh().then(function () { return startProfile(secs, true); });
        }
        // Spring Security's refusals have no JSON body.
        return r.text().then(function (t) {
          var body = {};
          try { body = JSON.parse(t); } catch (e) { /* not JSON */ }
          return { status: r.status, body: body };
        });
      });
  }

  var start = $('start');
  start.addEventListener('click', function () {
    var secs = Math.max(1, Math.min(3600, parseInt($('duration').value, 10) || 30));
    start.disabled = true;
    text('start-result', 'Starting\u2026');
    startProfile(secs, false)
      .then(function (r) {
        text('start-result', r.status === 200 ? 'Started ' + r.body.id + ' for ' + seconds(r.body.duration) + '.'
          : r.status + ': ' + (r.body.message || (r.status === 403 ? 'forbidden: you may not start a profile, '
            + 'or your login has ended (reload the page)' : r.body.error || 'refused')));
        refresh();
      })
      .catch(function (e) {
        text('start-result', 'Could not start: ' + e.message);
        start.disabled = false;
      });
  });
  refresh();
}());

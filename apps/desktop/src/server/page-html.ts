/**
 * The dashboard's one HTML document. Everything in it is static; the page script fills it in.
 * The landmarks and ids here are what the page script and the browser tests look for.
 */
export function renderPageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>macstats</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/app.css">
<script type="module" src="/assets/app.js"></script>
</head>
<body>
<header class="top">
  <h1>macstats</h1>
  <nav aria-label="Views">
    <a href="#metrics" data-view="metrics">Metrics</a>
    <a href="#chat" data-view="chat">Chat</a>
    <a href="#schedules" data-view="schedules">Schedules</a>
    <a href="#tasks" data-view="tasks">Tasks</a>
    <a href="#notes" data-view="notes">Notes</a>
    <a href="#skills" data-view="skills">Skills</a>
    <a href="#settings" data-view="settings">Settings</a>
  </nav>
  <button type="button" id="theme-toggle" class="ghost" aria-label="Switch theme">Theme</button>
</header>
<div id="banner" class="banner" role="alert" hidden></div>
<div id="connection" class="connection" role="status" hidden></div>
<main>
  <section id="view-metrics" class="view" aria-label="Metrics"></section>
  <section id="view-chat" class="view" aria-label="Chat" hidden></section>
  <section id="view-schedules" class="view" aria-label="Schedules" hidden></section>
  <section id="view-tasks" class="view" aria-label="Tasks" hidden></section>
  <section id="view-notes" class="view" aria-label="Notes" hidden></section>
  <section id="view-skills" class="view" aria-label="Skills" hidden></section>
  <section id="view-settings" class="view" aria-label="Settings" hidden></section>
</main>
<noscript>The dashboard needs JavaScript.</noscript>
</body>
</html>
`;
}

// Package lenscheck is a test-only module: it opens lens pages in a real
// Chromium through chromedp and checks what a person sees (the standing, the
// reasons, the badges, the first suspect, the search), that the page asks the
// network for nothing, and how fast it first renders. It writes a screenshot
// of every case under $TMPDIR/agentfootprint-lens, and with -docs the
// per-pane screenshots of docs/LENS.md. The main module never imports it, so
// chromedp never reaches a user's build.
//
// The tests skip when no Chromium is installed, unless CI=true, where they
// fail: .ci/run installs Debian's chromium.
package lenscheck

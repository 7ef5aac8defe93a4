/** The console's one stylesheet, served from /ui/style.css (the CSP allows no inline style). */
export const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1b1f24; background: #fff; }
header { display: flex; justify-content: space-between; align-items: center; padding: .6rem 1.2rem; background: #1b2a41; color: #fff; }
header a { color: #fff; margin-right: 1rem; font-weight: 600; }
main { padding: 1rem 1.2rem; max-width: 80rem; }
h1 { font-size: 1.4rem; margin: .2rem 0 1rem; }
h2 { font-size: 1.1rem; margin: 1.4rem 0 .5rem; }
a { color: #0b5cad; }
table { border-collapse: collapse; width: 100%; margin-bottom: 1rem; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #d0d7de; vertical-align: top; }
th { background: #f3f5f7; }
form.filters { display: flex; flex-wrap: wrap; gap: .6rem; align-items: end; margin-bottom: 1rem; }
label { display: flex; flex-direction: column; font-size: .85rem; }
input, select, button { font: inherit; padding: .25rem .4rem; }
button { cursor: pointer; }
.verdict-healthy, .state-fixed { color: #1a7f37; }
.verdict-remediated { color: #0b5cad; }
.verdict-needs-approval, .state-planned, .verdict-degraded, .state-blocked { color: #9a6700; }
.verdict-failed, .state-open { color: #cf222e; }
.diagnosis { font-size: 1.05rem; font-weight: 600; }
.error { color: #cf222e; font-weight: 600; }
pre { white-space: pre-wrap; background: #f6f8fa; padding: .5rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
`;

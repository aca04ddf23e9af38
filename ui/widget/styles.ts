/**
 * The widget's CSS, inside its shadow root: nothing leaks into the host page and the page's CSS does not
 * reach in (`:host { all: initial }`). The main colour is the custom property --bw-color.
 */
export const css = `
:host { all: initial; }
* { box-sizing: border-box; }
.root { position: fixed; right: 20px; bottom: 20px; z-index: 2147483000; display: flex; flex-direction: column; align-items: flex-end; gap: 12px;
  font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #1f2933; }
button { font: inherit; cursor: pointer; }
.launcher { width: 56px; height: 56px; border-radius: 50%; border: 0; background: var(--bw-color); color: var(--bw-on-color);
  box-shadow: 0 6px 20px rgba(0,0,0,.22); display: grid; place-items: center; position: relative; }
.launcher:focus-visible, .box button:focus-visible, textarea:focus-visible, .prechat input:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
.launcher svg { width: 26px; height: 26px; fill: currentColor; }
.badge { position: absolute; top: -2px; right: -2px; min-width: 20px; height: 20px; padding: 0 5px; border-radius: 10px; background: #dc2626;
  color: #fff; font-size: 12px; font-weight: 700; line-height: 20px; text-align: center; }
.box { width: min(370px, calc(100vw - 40px)); height: min(560px, calc(100vh - 110px)); background: #fff; border-radius: 14px;
  box-shadow: 0 12px 40px rgba(0,0,0,.25); display: flex; flex-direction: column; overflow: hidden; }
[hidden] { display: none !important; }
header { background: var(--bw-color); color: var(--bw-on-color); padding: 14px 16px; display: flex; align-items: center; gap: 12px; }
.titles { flex: 1; min-width: 0; }
.title { margin: 0; font-size: 16px; font-weight: 700; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.subtitle { margin: 2px 0 0; font-size: 13px; opacity: .9; }
.root.left { right: auto; left: 20px; align-items: flex-start; }
.logo { width: 36px; height: 36px; border-radius: 50%; object-fit: cover; background: #fff; flex-shrink: 0; }
.response { font-size: 12px; opacity: .85; }
.hours { padding: 8px 12px; background: #eef2ff; color: #1e3a8a; font-size: 13px; }
.unavailable { margin: 0; padding: 20px 16px; color: #7c2d12; background: #fef3c7; font-size: 14px; }
.prechat { display: flex; flex-direction: column; gap: 4px; padding: 12px; border-top: 1px solid #e4e7eb; background: #fff; align-items: stretch; }
.prechat .intro { margin: 0 0 4px; color: #52606d; font-size: 13px; }
.prechat label { font-size: 13px; font-weight: 600; margin-top: 4px; }
.prechat input { border: 1px solid #cbd2d9; border-radius: 8px; padding: 8px 10px; font: inherit; width: 100%; }
.prechat input[aria-invalid="true"] { border-color: #dc2626; }
.field-error { color: #b91c1c; font-size: 12px; min-height: 0; }
.field-error:empty { display: none; }
.start { margin-top: 8px; border: 0; border-radius: 8px; padding: 10px; background: var(--bw-color); color: var(--bw-on-color); font-weight: 700; }
.close { background: transparent; border: 0; color: inherit; width: 32px; height: 32px; border-radius: 50%; display: grid; place-items: center; }
.close svg { width: 18px; height: 18px; fill: currentColor; }
.notice { padding: 6px 12px; background: #fef3c7; color: #7c2d12; font-size: 12px; }
.messages { list-style: none; margin: 0; padding: 12px; flex: 1; overflow-y: auto; display: flex; flex-direction: column; gap: 8px; background: #f6f7f9; }
.welcome { color: #52606d; font-size: 13px; text-align: center; padding: 8px 12px; }
.msg { max-width: 82%; padding: 8px 10px; border-radius: 12px; background: #fff; box-shadow: 0 1px 2px rgba(0,0,0,.08); align-self: flex-start;
  overflow-wrap: anywhere; }
.msg.mine { align-self: flex-end; background: var(--bw-color); color: var(--bw-on-color); }
.msg.mine a { color: inherit; }
.author { font-size: 12px; font-weight: 600; color: #52606d; margin-bottom: 2px; }
.text { white-space: pre-wrap; }
.file { margin-top: 4px; }
.file img { display: block; max-width: 100%; max-height: 200px; border-radius: 8px; margin-bottom: 4px; }
.meta { font-size: 11px; opacity: .7; margin-top: 3px; text-align: right; }
.msg.failed { cursor: pointer; outline: 2px solid #dc2626; }
.msg.refused { outline: 2px solid #dc2626; }
.msg.refused .meta { opacity: 1; color: #b91c1c; text-align: left; }
.typing { padding: 4px 16px; font-size: 12px; color: #52606d; font-style: italic; background: #f6f7f9; }
form.composer { display: flex; align-items: flex-end; gap: 6px; padding: 10px; border-top: 1px solid #e4e7eb; background: #fff; }
textarea { flex: 1; resize: none; border: 1px solid #cbd2d9; border-radius: 10px; padding: 8px 10px; font: inherit; max-height: 110px; min-height: 38px; }
.icon { width: 38px; height: 38px; border-radius: 50%; border: 0; display: grid; place-items: center; background: transparent; color: #52606d; flex-shrink: 0; }
.icon svg { width: 20px; height: 20px; fill: currentColor; }
.send { background: var(--bw-color); color: var(--bw-on-color); }
.csat { margin-top: 8px; padding-top: 8px; border-top: 1px solid #e4e7eb; display: flex; flex-direction: column; gap: 6px; }
.csat-scale { display: flex; gap: 6px; }
.csat-option { flex: 1; min-width: 0; height: 38px; border: 1px solid #cbd2d9; border-radius: 8px; background: #fff; font-size: 16px; color: #1f2933; }
.csat-option[aria-pressed="true"] { background: var(--bw-color); color: var(--bw-on-color); border-color: var(--bw-color); font-weight: 700; }
.csat-label { font-size: 12px; color: #52606d; }
.csat-comment { min-height: 48px; }
.csat-submit { border: 0; border-radius: 8px; padding: 8px; background: var(--bw-color); color: var(--bw-on-color); font-weight: 700; }
.csat-submit:disabled { opacity: .5; cursor: default; }
.csat-done { margin: 0; font-weight: 600; }
.csat-thanks { margin: 0; color: #52606d; }
.csat-error { margin: 0; color: #b91c1c; font-size: 12px; }
.csat-error:empty { display: none; }
.box .csat button:focus-visible, .csat textarea:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
@media (max-width: 480px) { .root { right: 12px; bottom: 12px; } .root.left { left: 12px; right: auto; } .box { width: calc(100vw - 24px); height: calc(100vh - 96px); } }
`;

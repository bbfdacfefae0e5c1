/**
 * On the sign-up host, the page's scripts are fetched after its first paint (issue 13): they only enhance (every
 * sign-up page works without them), and on a phone's slow connection the ~15 module scripts Remix and React need
 * (~90–118 KB) would otherwise be requested as soon as the preload scanner sees them, competing with what the person
 * came to see. The block Remix writes at the end of the body (module preloads, its context, the module that
 * hydrates) is sent inside an inert <template>; a small script after it, once a frame has painted, puts the block
 * back exactly where it was and removes itself, so the document React hydrates is the one the server rendered.
 * Scripts cloned out of a template run when inserted, keeping their nonce.
 */
export function deferScripts(html: string, nonce: string): string {
  const start = html.indexOf('<link rel="modulepreload"');
  if (start < 0) return html;
  // Remix writes its data scripts (single fetch's stream) after </body></html>, where the browser still puts them
  // in the body: they belong in the block too, or they run before the context they feed.
  const block = html.slice(start).replace(/<\/body>\s*<\/html>/, "");
  const loader =
    `<script nonce="${nonce}">(()=>{const s=document.currentScript,t=s.previousElementSibling;let done=false;` +
    `const go=()=>{if(done)return;done=true;t.replaceWith(document.importNode(t.content,true));s.remove()};` +
    // After the next painted frame; a hidden tab paints no frames, so a timer stands in.
    `requestAnimationFrame(()=>setTimeout(go,0));setTimeout(go,1000)})()</script>`;
  return `${html.slice(0, start)}<template>${block}</template>${loader}</body></html>`;
}

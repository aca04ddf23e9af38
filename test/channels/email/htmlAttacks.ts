/**
 * E-mail HTML that must come out of both sanitizers (the server's 'Mostrar imagens' view and the inbox
 * frame's) with nothing that runs, redirects or rebases: issue 25's nested tags that single-pass filters let
 * through, script in SVG, handlers, javascript: links, frames, forms, stylesheets and objects.
 */
export const HTML_ATTACKS = [
  '<me<meta>ta http-equiv=refresh content="0;url=https://mal.example">',
  '<ba<base>se href="https://mal.example/">',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<script><script>alert(1)</script></script>',
  '<<script>script>alert(1)<</script>/script>',
  '<scr<script>ipt src="https://mal.example/x.js"></scr</script>ipt>',
  '<svg><script>alert(1)</script></svg>',
  '<img src="https://imagens.example/a.png" onerror="alert(1)">',
  '<img src=x onerror="alert(1)">',
  '<a href="javascript:alert(1)">clique</a>',
  '<iframe src="https://mal.example"></iframe><form action="https://mal.example"><input name=a></form>',
  '<link rel="stylesheet" href="https://mal.example/a.css"><object data="https://mal.example/x"></object>',
];

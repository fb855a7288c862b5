// Writes ../urlport.json: for each URL below, the port node 20's WHATWG URL
// parser gives host-access.ts's portOf (the URL's own port, else the one
// its scheme implies for http, ws, https and wss), or null when there is
// none. Run: node testdata/gen/urlport.mjs (from agentspawn/).
import { writeFileSync } from 'node:fs';

const implicit = { 'http:': '80', 'ws:': '80', 'https:': '443', 'wss:': '443' };
function portOf(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.port.length > 0) return parsed.port;
  return implicit[parsed.protocol] ?? null;
}

const urls = [
  'http://localhost:4000', 'http://192.168.1.40:10143', 'ws://host:4319', 'https://orch.example.com',
  'not a url', '', 'ws://127.0.0.1:4000/ws', 'wss://orch.example.com/ws', 'http://h:80', 'https://h:443',
  'http://h:443', 'https://h:80', 'ws://h:0080', 'http://h:00000', 'http://h:65535', 'http://h:65536',
  'http://h:99999999999999999999', 'http://h:', 'http://h:x', 'http://h:+80', 'http://h:-1', 'HTTP://H:4000',
  'http:h:4000', 'http:/h:4000', 'http:\\\\h:4000', 'http:///h:4000', 'http://user:pw@h:4000', 'http://u@v@h:4000',
  'http://[::1]:4000', 'http://[::1]', 'http://[::1:4000', 'http://[::1]x', 'http://:4000', 'http://a b:4000',
  'http://a%20b:4000', 'http://a%zz:4000', 'http://a<b:4000', 'http://h:4000?q', 'http://h:4000#f', 'http://h:4000/p',
  'http://h\\p:4000', ' http://h:4000 ', '\thttp://h:40\n00', 'tcp://h:2376', 'tcp:h:2376', 'foo://h', 'ftp://h:21',
  'ftp://h:2121', 'ftp://h', 'file:///tmp', 'file://h:80/', '1http://h:4000', 'h:4000', 'http+x://h:4000', ':4000',
  'http://h:4000:5000', 'ws://h:443', 'wss://h:80', 'http://é.example:4000', 'http://h^:1', 'http://h|:1',
  'http://%41:4000', 'http://h%:4000', 'tcp://[::1]:9', 'tcp://a b:9', 'http://h:４０００',
  'tcp://a\x01b:9', 'http://a\x01b:1', 'tcp://a\x7fb:9', 'http://a\x7fb:1', 'tcp://a%b:9', 'foo://:9', 'foo:///x',
  'http://@h:1', 'http://h:1@g:2', 'a://h:9', 'z://h:9', 'A://h:9', 'Z://h:9', 'a9://h:9', 'a0://h:9', 'a.b://h:9',
  'a-b://h:9', 'a+b://h:9', 'h$x://h:1', 'ht tp://h:1', 'a*b://h:9', 'a,b://h:9', 'a/b://h:9', 'a@b://h:9', 'a[b://h:9',
  'a`b://h:9', 'a{b://h:9', '`x://h:9', '{x://h:9', '@x://h:9', '[x://h:9', '/x://h:9', ':x://h:9', '0x://h:9', '9x://h:9',
  'http://a%4:1', 'http://a%41:1', 'http://a%4g:1', 'http://a%%41:1', 'foo://?x', 'http://?x', 'foo://#x', 'foo://h:1/x',
  'foo://h\\x:1', 'http://h\\x:1', 'http://[::1]:', 'http://[::1]:65536', 'http://[]:1',
  'http://[fe80::1%25eth0]:1', 'http://[1.2.3.4]:1', 'http://[::ffff:1.2.3.4]:1', 'http://[::1::]:1', 'http://[G::1]:1',
  'http://[::FFFF]:1', 'tcp://[::1]x:1', 'ws:\\\\h:7', 'ws://h\\x:7',
  // A special URL's host whose last label is a number is an IPv4 address,
  // and must parse as one: at most four numbers, decimal, 0x hex or 0 octal.
  'http://1.2.3.4.5:9', 'http://999.1.1.1:9', 'http://1.2.3.256:9', 'http://1.2.3.255:9', 'http://4294967295:9',
  'http://4294967296:9', 'http://1.16777215:9', 'http://1.16777216:9', 'http://1.2.3.08:9', 'http://1.2.3.07:9',
  'http://0x7f.1:9', 'http://0X7F.0x:9', 'http://0xg.1:9', 'http://foo.1:9', 'http://foo.0x1:9', 'http://foo.0x:9',
  'http://foo.1.:9', 'http://1.2.3.4.:9', 'http://1.2.3.4..:9', 'http://.1:9', 'http://foo.1a:9', 'http://1a:9',
  'http://%31.2.3.4:9', 'http://%39%39%39.1.1.1:9', 'http://0x100000000:9', 'http://0x' + '0'.repeat(40) + '1:9',
  'http://' + '9'.repeat(30) + ':9', 'ws://10.0.0.256:4000/ws', 'tcp://999.1.1.1:9', 'tcp://foo.1:9',
  // Numbers past 2^64, which wrapped would read as 1 (a valid address):
  // refused, as the parser's numbers do not wrap.
  'http://18446744073709551617:9', 'http://1.18446744073709551617:9', 'http://0x10000000000000001:9',
  'http://.:9', 'http://..:9',
];
writeFileSync(new URL('../urlport.json', import.meta.url), JSON.stringify(urls.map((u) => [u, portOf(u)]), null, 1) + '\n');

// cases.js lists the corpus: every case is a name and the bytes of a file
// (a string is written as UTF-8; a Buffer as it is).
'use strict';

const { prng } = require('./random.js');

const B = (...parts) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

const scalerConfig = `version: 1
globalMaxAgents: 50
defaults:
  resources:
    cpus: 2
    memory: 4g
scalers:
  - name: docker-linux
    type: container
    maxAgents: 4
    labelSets:
      - labels: [docker, linux]
        image: ghcr.io/kici-dev/kici-agent:0.20.0
        imagePullPolicy: IfNotPresent
      - labels:
          - Docker
          - "GPU"
        image: 'ghcr.io/kici-dev/kici-agent@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'
        env:
          FOO: "bar"
          EMPTY: ""
  - name: metal # a comment
    type: bare-metal
    labelSets:
      - labels: [metal]
        binaryPath: /usr/local/bin/kici-agent
`;

module.exports = function cases() {
  const c = [];
  const add = (name, src) => c.push({ name, src });

  // Documents and streams.
  add('empty', '');
  add('only spaces', '   ');
  add('only newline', '\n');
  add('only comment', '# nothing here\n');
  add('comments and blank lines', '\n# a\n\n   # b\n');
  add('doc start only', '---\n');
  add('doc start and end', '---\n...\n');
  add('doc end only', '...\n');
  add('doc start value', '--- 1\n');
  add('doc start then map', '---\na: 1\n');
  add('doc start then map then end', '---\na: 1\n...\n');
  add('doc end then comment', 'a: 1\n... # done\n');
  add('two documents', 'a: 1\n---\nb: 2\n');
  add('two documents, second empty', 'a: 1\n---\n');
  add('two documents after end', 'a: 1\n...\n---\nb: 2\n');
  add('doc end then content', 'a: 1\n...\nb: 2\n');
  add('three documents', '---\n1\n---\n2\n---\n3\n');
  add('doc start followed by block map on same line', '--- a: 1\n');
  add('doc start followed by seq on same line', '--- - a\n');
  add('doc start followed by flow', '--- [a, b]\n');
  add('doc start with comment', '--- # c\na: 1\n');
  add('dashes inside a scalar', 'a: ---\n');
  add('four dashes', '----\n');
  add('doc start without newline at end', '---');
  add('dots in plain', 'a: b...\n');

  // Directives.
  add('yaml 1.2 directive', '%YAML 1.2\n---\na: yes\n');
  add('yaml 1.1 directive bool', '%YAML 1.1\n---\na: yes\nb: on\nc: n\n');
  add('yaml 1.1 directive ints', '%YAML 1.1\n---\na: 017\nb: 0b101\nc: 1_000\nd: 190:20:30\ne: 0x1F\n');
  add('yaml 1.1 directive floats', '%YAML 1.1\n---\na: 1.5e3\nb: 1_0.5\nc: .inf\nd: .NaN\ne: 190:20:30.15\n');
  add('yaml 1.1 merge', '%YAML 1.1\n---\nbase: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3\n');
  add('yaml 1.1 null and strings', '%YAML 1.1\n---\na: ~\nb: Null\nc: hello\n');
  add('yaml 1.3 directive', '%YAML 1.3\n---\na: 1\n');
  add('yaml directive without doc start', '%YAML 1.2\na: 1\n');
  add('yaml directive only', '%YAML 1.2\n');
  add('yaml directive twice', '%YAML 1.2\n%YAML 1.2\n---\na: 1\n');
  add('yaml directive bad version', '%YAML x\n---\na: 1\n');
  add('yaml directive extra part', '%YAML 1.2 1.1\n---\na: 1\n');
  add('tag directive', '%TAG !e! tag:example.com,2000:\n---\na: !e!foo x\n');
  add('tag directive for !!', '%TAG !! tag:example.com,2000:\n---\na: !!str 1\n');
  add('tag directive one part', '%TAG !e!\n---\na: 1\n');
  add('unknown directive', '%FOO bar\n---\na: 1\n');
  add('directive with comment', '%YAML 1.2 # c\n---\na: 1\n');
  add('directive after document', 'a: 1\n%YAML 1.2\n---\nb: 2\n');
  add('percent plain', 'a: %x\n');
  add('percent start plain', '%x\n');

  // Null.
  add('null forms', 'a: null\nb: Null\nc: NULL\nd: ~\ne:\nf: nuLL\n');
  add('null document', 'null\n');
  add('tilde document', '~\n');
  add('empty value then key', 'a:\nb: 1\n');

  // Bool.
  add('bool forms', 'a: true\nb: True\nc: TRUE\nd: false\ne: False\nf: FALSE\ng: tRUE\n');
  add('yaml 1.1 bools are strings', 'a: yes\nb: no\nc: on\nd: off\ne: y\nf: n\ng: Yes\nh: NO\ni: Y\n');

  // Int.
  add('ints', 'a: 0\nb: 1\nc: -1\nd: +1\ne: -0\nf: +0\ng: 007\nh: 017\n');
  add('octal', 'a: 0o17\nb: 0o0\nc: 0o8\nd: -0o17\ne: 0O17\n');
  add('hex', 'a: 0x1F\nb: 0x1f\nc: 0X1F\nd: -0x1F\ne: 0xG\nf: 0x\n');
  add('big ints', 'a: 9007199254740992\nb: 9007199254740993\nc: 123456789012345678901234567890\nd: -9007199254740993\ne: 0x20000000000001\nf: 0o400000000000000001\n');
  add('huge int', 'a: ' + '9'.repeat(400) + '\n');
  add('int with underscores', 'a: 1_000\nb: 0b101\n');

  // Float.
  add('floats', 'a: 1.5\nb: -1.5\nc: .5\nd: 5.\ne: +.5\nf: 1.0\ng: 0.1\nh: 1.50\n');
  add('exp floats', 'a: 1e3\nb: 1E3\nc: 1e-3\nd: -1.5e+3\ne: .5e2\nf: 1.e2\ng: 1e\nh: e3\n');
  add('inf and nan', 'a: .inf\nb: -.inf\nc: +.inf\nd: .Inf\ne: .INF\nf: .nan\ng: .NaN\nh: .NAN\ni: .nAn\nj: -.nan\n');
  add('float extremes', 'a: 1e308\nb: 1e309\nc: 5e-324\nd: 1e-400\ne: 2.2250738585072014e-308\nf: 0.30000000000000004\ng: 123456789.123456789\n');
  add('float to string keys', '1e21: a\n1e-7: b\n0.000001: c\n1.5: d\n-0: e\n.inf: f\n-.inf: g\n100: h\n');
  add('not numbers', 'a: 1.2.3\nb: 1,000\nc: 0x\nd: 1_000\ne: 12e\nf: "1"\ng: 1 2\n');

  // Strings.
  add('plain strings', 'a: hello world\nc: a#b\nd: x # comment\ne: -dash\nf: ?q\ng: :c\n');
  add('plain multi line', 'a: one\n  two\n\n  three\n\n\n  four\nb: x\n');
  add('plain multi line top', 'one\ntwo\n  three\n');
  add('plain with trailing spaces', 'a: x   \nb: y\t\n');
  add('plain multi line with comment end', 'a: one\n  two # c\nb: x\n');
  add('plain reserved starts', 'a: @x\n');
  add('plain backtick', 'a: `x\n');
  add('plain starting with comma', 'a: ,x\n');
  add('plain starting with percent', 'a: %x\n');
  add('plain with unicode', 'a: héllo wörld ✓ 😀\n');
  add('plain with tabs inside', 'a: x\ty\n');
  add('single quoted', "a: 'it''s'\nb: ''\nc: ' x '\nd: 'a\n  b\n\n  c'\n");
  add('single quoted unclosed', "a: 'abc\n");
  add('single quoted crlf', "a: 'x\r\n  y'\r\n");
  add('double quoted', 'a: "x"\nb: ""\nc: " x "\nd: "a\n  b\n\n  c"\n');
  add('double quoted escapes', 'a: "\\0\\a\\b\\e\\f\\n\\r\\t\\v\\N\\_\\L\\P\\ \\"\\/\\\\\\\t."\n');
  add('double quoted hex escapes', 'a: "\\x41\\u00e9\\U0001F600\\u2028"\n');
  add('double quoted surrogate escapes', 'a: "\\ud83d\\ude00"\nb: "\\ud800"\nc: "x\\udc00y"\n');
  add('double quoted bad escape', 'a: "\\q"\n');
  add('double quoted short hex', 'a: "\\x4"\n');
  add('double quoted bad hex', 'a: "\\xZZ"\n');
  add('double quoted too big code point', 'a: "\\U00110000"\n');
  add('double quoted escaped newline', 'a: "one \\\n   two"\n');
  add('double quoted escaped crlf', 'a: "one \\\r\n   two"\r\n');
  add('double quoted trailing spaces before newline', 'a: "one   \n   two"\n');
  add('double quoted unclosed', 'a: "abc\n');
  add('double quoted escaped quote at end', 'a: "abc\\"\n');
  add('double quoted unindented', 'a:\n  b: "x\ny"\n');
  add('quoted key', '"a b": 1\n\'c\': 2\n');
  add('quoted then text', 'a: "x" y\n');
  add('double quoted crlf folding', 'a: "x\r\n\r\n  y"\r\n');

  // Block scalars.
  add('literal', 'a: |\n  one\n  two\n\n  three\nb: x\n');
  add('literal strip', 'a: |-\n  one\n\n\nb: x\n');
  add('literal keep', 'a: |+\n  one\n\n\nb: x\n');
  add('literal keep at end', 'a: |+\n  one\n\n\n');
  add('literal clip at end no newline', 'a: |\n  one');
  add('folded', 'a: >\n  one\n  two\n\n  three\n    more\n  four\nb: x\n');
  add('folded strip', 'a: >-\n  one\n  two\n');
  add('folded keep', 'a: >+\n  one\n\n');
  add('literal indentation indicator', 'a: |2\n    one\n  two\n');
  add('literal indentation and chomping', 'a: |2-\n    one\n  two\n\n');
  add('literal chomping then indentation', 'a: |-2\n    one\n');
  add('literal indicator 1 top', '|1\n one\n');
  add('literal zero indicator', 'a: |0\n  x\n');
  add('literal with comment header', 'a: | # c\n  one\n');
  add('literal header bad char', 'a: |x\n  one\n');
  add('literal empty', 'a: |\nb: 1\n');
  add('literal empty keep', 'a: |+\n\nb: 1\n');
  add('literal empty keep end', 'a: |+\n\n\n');
  add('literal leading blank lines', 'a: |\n\n  one\n');
  add('literal more indented leading empty line', 'a: |\n    \n  one\n');
  add('literal top level', '|\n one\n two\n');
  add('literal top level zero indent', '|\none\ntwo\n');
  add('literal crlf', 'a: |\r\n  one\r\n  two\r\n');
  add('folded crlf', 'a: >\r\n  one\r\n  two\r\n\r\n  three\r\n');
  add('literal with tab content', 'a: |\n  \tx\n');
  add('folded with tab line', 'a: >\n  x\n  \ty\n  z\n');
  add('literal less indented line', 'a: |\n    one\n  two\n');
  add('literal in seq', '- |\n  x\n- >-\n  y\n');
  add('literal in seq zero indent', '- |\nx\n');
  add('literal trailing tab', 'a: |\n  x\n\t\n');
  add('literal keep trailing spaces', 'a: |+\n  x\n   \n');
  add('block scalar as key', '? |\n  k\n: v\n');

  // Block collections.
  add('simple map', 'a: 1\nb: two\n');
  add('nested map', 'a:\n  b:\n    c: 1\n  d: 2\ne: 3\n');
  add('simple seq', '- a\n- b\n');
  add('seq of maps', '- a: 1\n  b: 2\n- c: 3\n');
  add('seq in map not indented', 'a:\n- 1\n- 2\nb: 3\n');
  add('seq in map indented', 'a:\n  - 1\n  - 2\n');
  add('nested seqs', '- - a\n  - b\n- - c\n');
  add('empty seq items', '-\n- \n-  # c\n');
  add('map with empty values', 'a:\nb:\nc:\n');
  add('bad indentation', 'a: 1\n b: 2\n');
  add('bad indentation less', 'a:\n    b: 1\n  c: 2\n');
  add('seq item without dash', '- a\nb\n');
  add('seq bad indent', '- a\n  - b\n');
  add('map and seq at same level', 'a: 1\n- b\n');
  add('compact nested mapping', 'a: b: c\n');
  add('seq on same line as key', 'a: - b\n');
  add('map value on next line', 'a:\n  1\n');
  add('implicit key multi line', 'a\nb: 1\n');
  add('key without value', 'a\n');
  add('key without colon in map', 'a: 1\nb\n');
  add('explicit key', '? a\n: 1\n');
  add('explicit key no value', '? a\n');
  add('explicit key multi', '? a\n? b\n: 2\n');
  add('explicit key seq', '? - a\n  - b\n: 1\n');
  add('explicit key map', '? a: 1\n  b: 2\n: v\n');
  add('empty key', ': 1\n');
  add('empty key in nested', 'a:\n  : 1\n');
  add('colon without space', 'a:1\n');
  add('colon at end', 'a:\n');
  add('url value', 'a: http://x.y/z?q=1#f\n');
  add('key with spaces', 'a b c: 1\n');
  add('long implicit key', 'k'.repeat(1030) + ': 1\n');
  add('long implicit key 1024', 'k'.repeat(1024) + ': 1\n');
  add('long implicit key 1025', 'k'.repeat(1025) + ': 1\n');
  add('long implicit unicode key', 'é'.repeat(600) + ': 1\n');
  add('block seq as implicit key', '- a\n: b\n');
  add('deep block', 'a:\n  b:\n    c:\n      d:\n        e:\n          f: 1\n');
  add('dedent back to root', 'a:\n  b: 1\nc:\n  - d\n  - e: f\n    g: h\n');
  add('trailing comments', 'a: 1 # one\n# between\nb: 2 # two\n# end\n');
  add('comment without space', 'a: 1# not a comment\nb: "x"# bad\n');
  add('comment after quoted without space', 'a: "x"#c\n');
  add('indented comment', 'a:\n  # c\n  b: 1\n');
  add('comment lines in seq', '- a\n  # c\n- b\n');

  // Duplicate keys.
  add('duplicate key', 'a: 1\na: 2\n');
  add('duplicate null keys', '~: 1\nnull: 2\n');
  add('duplicate empty and null key', ': 1\n~: 2\n');
  add('duplicate numbers', '1: a\n01: b\n');
  add('duplicate number and string', '1: a\n"1": b\n');
  add('duplicate float and int', '1.0: a\n1: b\n');
  add('duplicate zero and minus zero', '0: a\n-0: b\n');
  add('duplicate nan', '.nan: a\n.nan: b\n');
  add('duplicate bool', 'true: a\nTrue: b\n');
  add('duplicate in flow', '{a: 1, a: 2}\n');
  add('duplicate collection keys', '[a]: 1\n[a]: 2\n');
  add('duplicate alias key', 'x: &a k\n*a : 1\nk: 2\n');
  add('duplicate quoted and plain', 'a: 1\n"a": 2\n');
  add('duplicate key deep', 'a:\n  b: 1\n  b: 2\n');

  // Special keys.
  add('merge key is ordinary', 'base: &b {x: 1}\nd:\n  <<: *b\n  y: 2\n');
  add('merge key plain', '<<: 1\n');
  add('merge key twice', '<<: 1\n<<: 2\n');
  add('proto key', '__proto__: 1\nconstructor: 2\ntoString: 3\nhasOwnProperty: 4\n');
  add('proto key with map', '__proto__:\n  polluted: yes\n');
  add('array index keys', 'b: 1\n10: x\n2: y\na: 2\n1: z\n4294967294: big\n4294967295: notindex\n-1: neg\n');
  add('number keys', '1: a\n1.5: b\n0x10: c\n0o10: d\n1e2: e\n');
  add('bool and null keys', 'true: a\nfalse: b\nnull: c\n');
  add('empty key string', '"": 1\n');
  add('collection key flow seq', '[a, b]: 1\n');
  add('collection key flow map', '{a: 1, "b": [x]}: 2\n');
  add('collection key block seq', '? - a\n  - b\n: 1\n');
  add('collection key block map', '? a: 1\n  b: [2, 3]\n: v\n');
  add('collection key empty seq', '[]: 1\n');
  add('collection key empty map', '{}: 1\n');
  add('collection key nested', '[[a, b], {c: d}]: 1\n');
  add('collection key with quotes', '["a", \'b\', "c d"]: 1\n');
  add('collection key with numbers', '[0x1F, 0o17, 1e3, 1.50, .inf, -0, 017]: 1\n');
  add('collection key with null and bool', '[~, null, Null, true, False]: 1\n');
  add('collection key with empty item', '[~, , true]: 1\n');
  add('collection key with tags', '[!!str 1, !!int "2", !foo x]: 1\n');
  add('collection key with anchors', '[&x a, *x]: 1\n');
  add('collection key with comment', '? [a, #c\n  b]\n: 1\n');
  add('collection key long', '[' + 'aaaaaaaaaaaaaaaaaaaa, '.repeat(5) + 'b]: 1\n');
  add('collection key long scalar', '[' + 'a'.repeat(40) + ' ' + 'b'.repeat(57) + ']: 1\n');
  add('collection key block scalar', '? - |\n    x\n    y\n: 1\n');
  add('collection key multiline string', '? - "a\\nb"\n: 1\n');
  add('collection key special strings', '? - "a: b"\n  - "#x"\n  - " lead"\n  - "true"\n  - "1"\n  - ""\n  - "\\t"\n: 1\n');
  add('alias of collection as key', 'x: &a [1, 2]\n*a : 3\n');
  add('alias of scalar as key', 'x: &a k\n*a : 3\n');
  add('alias as flow key', 'x: &a k\ny: {*a : 3}\n');

  // Flow collections.
  add('flow seq', '[a, b, c]\n');
  add('flow map', '{a: 1, b: 2}\n');
  add('flow nested', '{a: [1, {b: c}], d: {}}\n');
  add('flow empty', 'a: []\nb: {}\n');
  add('flow trailing comma', '[a, b,]\n');
  add('flow map trailing comma', '{a: 1,}\n');
  add('flow leading comma', '[, a]\n');
  add('flow double comma', '[a,, b]\n');
  add('flow multi line', 'a: [\n  1,\n  2\n]\n');
  add('flow multi line map', 'a: {\n  b: 1,\n  c: 2\n  }\n');
  add('flow not indented', 'a: [\n1]\n');
  add('flow end at indent', 'a:\n  - [\n    x\n  ]\n');
  add('flow unclosed', '[a, b\n');
  add('flow unclosed map', '{a: 1\n');
  add('flow wrong close', '[a}\n');
  add('flow extra close', '[a]]\n');
  add('flow close at root', ']\n');
  add('flow seq with pair', '[a: 1, b]\n');
  add('flow seq with explicit pair', '[? a : 1]\n');
  add('flow map with empty value', '{a, b: }\n');
  add('flow map with empty key', '{: 1}\n');
  add('flow json style', '{"a":1,"b":[true,null]}\n');
  add('flow adjacent value', '{"a":b}\n');
  add('flow plain colon', '{a:b}\n');
  add('flow plain url', '[http://x.y]\n');
  add('flow missing comma', '[a b]\n');
  add('flow map missing comma', '{a: 1 b: 2}\n');
  add('flow comment', '[a, # c\n b]\n');
  add('flow block in flow', '[- a]\n');
  add('flow with multi line plain', '[a\n b, c]\n');
  add('flow key multi line in seq', '[a\n : b]\n');
  add('flow then text', '[a] b\n');
  add('flow as key then value', '[a]: [b]\n');
  add('flow map as key on one line', '{a: b}: c\n');
  add('flow doc markers inside', '[\n---\n]\n');
  add('flow quoted keys', '{"a": 1, \'b\': 2}\n');
  add('flow with tags and anchors', '[!!str 1, &a 2, *a]\n');
  add('flow map long key', '[' + 'k'.repeat(1030) + ': v]\n');

  // Tabs.
  add('tab indentation', 'a:\n\tb: 1\n');
  add('tab before seq', '-\ta\n');
  add('tab after key', 'a:\t1\n');
  add('tab in seq indent', '- a\n\t- b\n');
  add('tab only line', 'a: 1\n\t\nb: 2\n');
  add('tab before comment', 'a: 1\n\t# c\n');
  add('tab at doc start', '\ta: 1\n');
  add('tab before flow', '\t[a]\n');
  add('tab indent in flow', '[\n\ta]\n');
  add('tab after dash', '- \ta\n');
  add('tab in value indent', 'a:\n  b:\n\t c: 1\n');

  // Anchors, aliases, tags.
  add('anchor and alias', 'a: &x 1\nb: *x\n');
  add('alias to map', 'a: &x {k: v}\nb: *x\nc: *x\n');
  add('alias to seq', 'a: &x [1]\nb: *x\n');
  add('alias undefined', 'a: *x\n');
  add('alias before anchor', 'a: *x\nb: &x 1\n');
  add('anchor redefined', 'a: &x 1\nb: *x\nc: &x 2\nd: *x\n');
  add('alias circular seq', '&a [*a]\n');
  add('alias circular map', '&a {x: *a}\n');
  add('alias circular block', '&a\nx: *a\n');
  add('alias with props', 'a: &x 1\nb: !!str *x\n');
  add('alias with anchor', 'a: &x 1\nb: &y *x\n');
  add('anchor empty', 'a: & 1\n');
  add('alias empty', 'a: *\n');
  add('anchor on empty value', 'a: &x\nb: *x\n');
  add('anchor on block map', 'a: &x\n  b: 1\nc: *x\n');
  add('anchor on seq same line', 'a: &x - 1\n');
  add('anchor two', 'a: &x &y 1\n');
  add('anchor ending colon', 'a: &x: 1\n');
  add('alias ending colon', 'a: &x: 1\nb: *x:\n');
  add('anchor unicode', 'a: &ä 1\nb: *ä\n');
  add('alias count fine', 'a: &a [1]\nb: [' + Array(50).fill('*a').join(', ') + ']\n');
  add('alias count excessive', 'a: &a [1]\nb: [' + Array(101).fill('*a').join(', ') + ']\n');
  add('alias billion laughs', 'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n');
  add('alias scalar many', 'a: &a x\nb: [' + Array(150).fill('*a').join(', ') + ']\n');
  add('alias empty seq many', 'a: &a []\nb: [' + Array(150).fill('*a').join(', ') + ']\n');
  add('tag str', 'a: !!str 1\nb: !!str true\nc: !!str\nd: !!str ~\n');
  add('tag int', 'a: !!int "3"\nb: !!int 0x1F\nc: !!int x\nd: !!int 1.5\n');
  add('tag float', 'a: !!float 1\nb: !!float "2.5"\nc: !!float x\nd: !!float .inf\n');
  add('tag bool', 'a: !!bool "true"\nb: !!bool yes\nc: !!bool 1\n');
  add('tag null', 'a: !!null ""\nb: !!null x\nc: !!null ~\n');
  add('tag non specific', 'a: ! 1\nb: ! true\nc: !\n');
  add('tag unknown', 'a: !foo x\nb: !foo 1\nc: !foo [1]\nd: !foo {x: 1}\n');
  add('tag unknown secondary', 'a: !!foo x\n');
  add('tag verbatim', 'a: !<tag:yaml.org,2002:str> 1\nb: !<!foo> x\n');
  add('tag verbatim bad', 'a: !<!> 1\n');
  add('tag verbatim unclosed', 'a: !<tag:yaml.org,2002:str 1\n');
  add('tag percent escape', 'a: !!%73tr 1\n');
  add('tag bad percent', '%TAG !e! tag:e,2000:\n---\na: !e!%ff x\n');
  add('tag no suffix', 'a: !!\n');
  add('tag undefined handle', 'a: !e!x 1\n');
  add('tag map on seq', 'a: !!map [1]\n');
  add('tag seq on map', 'a: !!seq {x: 1}\n');
  add('tag seq on seq', 'a: !!seq [1]\nb: !!map {x: 1}\n');
  add('tag str on map', 'a: !!str {x: 1}\n');
  add('tag int on seq', 'a: !!int [1]\n');
  add('tag map on scalar', 'a: !!map x\n');
  add('tag binary', 'a: !!binary aGVsbG8=\n');
  add('tag timestamp', 'a: !!timestamp 2001-12-14\n');
  add('tag set', 'a: !!set {x, y}\n');
  add('tag omap', 'a: !!omap [x: 1, y: 2]\n');
  add('tag pairs', 'a: !!pairs [x: 1, x: 2]\n');
  add('tag then seq same line', 'a: !!seq - x\n');
  add('tag on block seq', 'a: !!seq\n- x\n');
  add('tag two', 'a: !!str !!int 1\n');
  add('tag and anchor order', 'a: !!str &x 1\nb: *x\n');
  add('tag without space', 'a: !!str"x"\n');
  add('anchor without space', 'a: &x"y"\n');
  add('props on key', '&k a: &v 1\n!!str b: 2\n');
  add('props before indicator', '&x - a\n');
  add('date-like string', 'a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\n');

  // Document-level and misc errors.
  add('unexpected flow end', '}\n');
  add('unexpected seq ind', 'a: [-]\n');
  add('question mark plain', 'a: ?x\n');
  add('block seq after doc start inline', '--- - a\n- b\n');
  add('only dash', '-\n');
  add('only colon', ':\n');
  add('only question', '?\n');
  add('at sign', '@\n');
  add('control characters', 'a: x\x01y\nb: \x7f\n');
  // A control character of yaml's lexer written in the text is a token that
  // yaml's offsets do not count: what follows it is one byte further on.
  add('flow-end control character after a block scalar header', '> \x18\na: b\n');
  add('doc-mode control character after a block scalar header', '| \x02\n- a\n');
  add('scalar control character in a key', 'a\x1f: b\nc: [d, \x18 e]\n');
  add('nul byte', 'a: x\x00y\n');
  add('carriage return alone', 'a: 1\rb: 2\n');
  add('unicode line separator', 'a: x\u2028y\n');
  add('next line char', 'a: x\u0085y\n');

  // Encodings and line ends.
  add('bom', '\ufeffa: 1\n');
  add('bom only', '\ufeff');
  add('bom and doc start', '\ufeff---\na: 1\n');
  add('bom in middle', 'a: 1\n\ufeffb: 2\n');
  add('bom in value', 'a: \ufeffx\n');
  add('bom before comment', '\ufeff# c\na: 1\n');
  add('bom twice', '\ufeff\ufeffa: 1\n');
  add('crlf', 'a: 1\r\nb:\r\n  - x\r\n  - "y"\r\n  - \'z\'\r\nc: |\r\n  l\r\n');
  add('crlf plain multi line', 'a: one\r\n  two\r\n\r\n  three\r\n');
  add('crlf comments', 'a: 1 # c\r\n# d\r\nb: 2\r\n');
  add('bom and crlf', '\ufeffa: x\r\nb: "y"\r\n');
  add('invalid utf8 byte', B('a: x', [0xff], 'y\n'));
  add('invalid utf8 truncated', B('a: x', [0xe2, 0x82], 'y\n'));
  add('invalid utf8 at end', B('a: x', [0xe2, 0x82]));
  add('invalid utf8 surrogate', B('a: ', [0xed, 0xa0, 0x80], '\n'));
  add('invalid utf8 overlong', B('a: ', [0xc0, 0xaf], '\n'));
  add('invalid utf8 in key', B([0xff], ': 1\n'));
  add('invalid utf8 in quoted', B('a: "', [0xf0, 0x9f, 0x98], '"\n'));
  add('invalid utf8 in escape join', B('a: "x', [0xe2], '\\\n  ', [0x82, 0xac], '"\n'));
  add('invalid utf8 in block', B('a: |\n  ', [0x80, 0x81], '\n'));
  add('invalid utf8 in comment', B('a: 1 # ', [0xff], '\n'));
  add('literal replacement char', 'a: \ufffd\n');
  add('four byte utf8', 'a: 😀\n😀: b\n');

  // Shapes.
  add('scaler config', scalerConfig);
  add('scaler config crlf', scalerConfig.replace(/\n/g, '\r\n'));
  add('scaler config bom', '\ufeff' + scalerConfig);
  add('scalar document', 'hello\n');
  add('number document', '42');
  add('quoted document', '"x"\n');
  add('seq document with comments', '# c\n- a # x\n# d\n- b\n');
  add('deep flow 100', '['.repeat(100) + ']'.repeat(100) + '\n');
  add('deep block 100', Array.from({ length: 100 }, (_, i) => ' '.repeat(i) + 'k:').join('\n') + ' v\n');
  add('deep seq 100', Array.from({ length: 100 }, (_, i) => ' '.repeat(2 * i) + '-').join('\n') + ' v\n');
  add('many keys', Array.from({ length: 300 }, (_, i) => `k${i}: ${i}`).join('\n') + '\n');
  add('long line', 'a: ' + 'x'.repeat(5000) + '\n');
  add('indented root map', '  a: 1\n  b: 2\n');
  add('indented root map bad', '  a: 1\nb: 2\n');
  add('key ending in spaces before colon', 'a   : 1\n');
  add('values with colons', 'a: b:c\nd: "e: f"\ng: h :i\n');
  add('question and dash plain', 'a: -\nb: ?\n');
  add('seq of empty maps', '- {}\n- []\n-\n');
  add('map in seq same line then more', '- a: 1\n  b:\n    - c\n');
  add('windows path', 'a: C:\\Users\\x\nb: "C:\\\\Users"\n');

  // Numbers at the edge of float64.
  add('int rounding', 'a: 9007199254740993\nb: 9007199254740995\nc: 0x20000000000003\nd: 0o400000000000000003\ne: 18446744073709551615\nf: 0x10000000000000000\ng: 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\n');
  add('float rounding', 'a: 0.1e1\nb: 1.7976931348623157e308\nc: 1.7976931348623159e308\nd: 4.9e-324\ne: 2.4703282292062327e-324\nf: 2.4703282292062328e-324\n');
  add('number strings as keys', '1e21: a\n1e-7: b\n123456789012345680000: c\n0.1: d\n100e-2: e\n5e-7: f\n');

  // Nesting.
  add('deep flow 800', '['.repeat(800) + ']'.repeat(800) + '\n');
  add('deep block 700', Array.from({ length: 700 }, (_, i) => ' '.repeat(i) + 'k:').join('\n') + ' v\n');
  add('deep flow map 300', '{a: '.repeat(300) + 'x' + '}'.repeat(300) + '\n');

  // Keys named by their YAML text.
  add('key seq of numbers formats', '[1.0, 1e3, -0, 1.50, 0.5e1, .5, 5., +1, 0o0, 0x0]: x\n');
  add('key seq of tagged oddities', '[!!float 1, !!int x, !!bool x, !!null x, !!str, !!float .inf, !!int 0x1F]: x\n');
  add('key seq of nan inf', '[.nan, .inf, -.inf, .NaN, +.inf]: x\n');
  add('key binary', '!!binary aGVsbG8=: x\n');
  add('key binary in seq', '[!!binary aGVsbG8=]: x\n');
  add('key timestamp in seq', '[!!timestamp 2001-12-14, !!timestamp 2001-12-14t21:59:43.10-05:00]: x\n');
  add('key timestamp scalar', '!!timestamp 2001-12-14 21:59:43.1: x\n');
  add('key strings needing quotes', '[" lead", "trail ", "a: b", "- x", "? y", "#c", "&a", "*b", "!t", "|", ">", "\'q", "%p", "@r", "`s", "x #y", "tab\\there", "\\u0001", "-", "?", "x:", "", "--- a", "... b"]: 1\n');
  add('key strings that read as others', '["1", "true", "null", "~", "0x1F", "1e3", ".inf", "", "False", "0o7", "-1"]: 1\n');
  add('key strings with quotes', '["it\'s", \'say "hi"\', "both \'\\"", \'single\']: 1\n');
  add('key long double quoted', '["' + 'word '.repeat(30) + 'end"]: 1\n');
  add('key long double quoted with newlines', '["first line of text\\nsecond line of the text\\n\\nthird line of the text here"]: 1\n');
  add('key long single quoted', "['" + 'word '.repeat(30) + "end']: 1\n");
  add('key long plain no spaces', '[' + 'x'.repeat(120) + ']: 1\n');
  add('key long unicode', '[' + 'é'.repeat(30) + ' ' + 'ü'.repeat(30) + ' ' + '😀'.repeat(30) + ']: 1\n');
  add('key flow map in seq', '[{a: 1}, {b: [c, d]}, {}]: x\n');
  add('key flow map null values', '{a, b, c}: x\n');
  add('key flow map mixed values', '{a, b: 1, ? c}: x\n');
  add('key flow map with collection keys', '{[a]: 1, {b: c}: 2}: x\n');
  add('key seq with pairs', '[a: 1, b: [2], {c: d}: e]: x\n');
  add('key seq with comments everywhere', '? [ # one\n  a, # two\n  # three\n  b\n  ]\n: x\n');
  add('key map with comments', '? { # one\n  a: 1, # two\n  b: 2 # three\n  }\n: x\n');
  add('key block map with comments', '? # before\n  a: 1 # after a\n  # between\n  b: 2\n: x\n');
  add('key block seq with blank lines', '? - a\n\n  - b\n: x\n');
  add('key with anchors and aliases', 'base: &b [1]\n? [&x a, *x, *b, &y {k: *x}]\n: x\n');
  add('key with tags', '%TAG !e! tag:example.com,2000:\n---\n[!e!foo a, !<tag:x.y,2000:z> b, !local c, !!map {}, !!seq [], ! d, ![] e]: x\n');
  add('key with set and omap', '[!!set {a, b}, !!omap [a: 1], !!pairs [a: 1, a: 2]]: x\n');
  add('key with merge', '[!!merge <<]: x\n');
  add('key with block scalars', '? - |\n    literal\n  - >\n    folded\n    text\n  - |+\n    keep\n\n  - |-\n    strip\n: x\n');
  add('key with empty values', '? [a: , : b, :]\n: x\n');
  add('key with null forms', '[~, null, Null, NULL, !!null "", !!null ~]: x\n');
  add('key with bool forms', '[true, True, TRUE, false, !!bool "false", !!bool "True"]: x\n');
  add('key nested deep', '[[[[[[a]]]]], {b: {c: {d: [e]}}}]: x\n');
  add('key surrogate string', '"\\ud800": 1\n"\\udc00x": 2\n');
  add('key seq with surrogate', '["\\ud800", "\\ud83d\\ude00"]: 1\n');
  add('key with anchor name bad', '[&a\u00a0b x]: 1\n');
  add('key with alias name bad', 'x: &a\u00a0b 1\n[*a\u00a0b]: 2\n');
  add('key seq with spaces before', '? [\n\n  a,\n\n  b\n  ]\n: x\n');
  add('alias key to seq implicit', 'a: &s [1, 2]\n? *s\n: x\n');
  add('key double quoted escapes', '["\\0\\a\\b\\e\\f\\v\\N\\_\\L\\P\\x7f\\x85\\t"]: 1\n');
  add('key with doc marker text', '["--- x", "...", "%x"]: 1\n');

  add('key plain multi line in seq', '? [a\n\n  b, c\n  d]\n: x\n');
  add('key single quoted multi line', "? ['a\n\n  b', 'c\n  d']\n: x\n");
  add('key block scalar with quotes', '? - |\n    a \n    "b"\n  - |\n    it\'s\n    "q"\n: x\n');
  add('key comments on values', '? {a: 1, # one\n   # two\n   b: 2}\n: x\n');
  add('key comment multi line before item', '? [a,\n  # one\n  # two\n\n  b]\n: x\n');
  add('key value with props and newline', '? {a: &x [b, # c\n  d], e: !!seq [f, # g\n  h], i: &y !!map {j: k, # l\n  m: n}}\n: x\n');
  add('key value collections multi line', '? {a: [b, # c\n  d], e: {f: g, # h\n  i: j}}\n: x\n');
  add('key control characters', '["\\x01", "\\x7f", "\\x85\\x9f", "\\x1b\\0"]: 1\n');
  add('key long quoted no spaces', '["' + 'x'.repeat(100) + '"]: 1\n');
  add('key long quoted escapes', '["' + 'ab\\t'.repeat(40) + '"]: 1\n');
  add('key long key then value', '? {' + 'k'.repeat(70) + ': ' + 'word '.repeat(20) + '}\n: x\n');
  add('key long string then long value', '? {' + 'k'.repeat(30) + ': "' + 'word '.repeat(20) + '"}\n: x\n');
  add('key negative exp', '[-1e3, -1.5e-7, 1E+2]: x\n');
  add('key number strings tagged', '[!!float "0x10", !!float " 1.5 ", !!int "1e3", !!float "Infinity", !!float "-Infinity", !!int "0b101", !!int "0o17", !!float "", !!float "1_0", !!float ".5", !!float "5.", !!float "+.5", !!float "1e", !!float "abc", !!int "-0"]: x\n');
  add('key bool tagged strings', '[!!bool x, !!bool "", !!bool 0, !!null "null"]: x\n');
  add('key plain needing quotes', '["a:", "a #b", "a\\t#b", "- a", "? a", "a\\n b", "a :b", "x\\n", ": a"]: 1\n');
  add('omap duplicate kinds', 'a: !!omap [1: a, "1": b, ~: c, true: d, .nan: e, .nan: f, [x]: g]\n');
  add('omap duplicate null', 'a: !!omap [~: a, null: b]\n');
  add('set merge', 'a: !!set {!!merge << }\n');
  add('pairs odd items', 'a: !!pairs [x, {y: 1}, {z: 2, w: 3}]\n');
  add('pairs with comments', 'a: !!pairs\n  # one\n  - x: 1 # two\n  - {y: 2} # three\n');
  add('pairs on scalar', 'a: !!pairs x\n');
  add('explicit keys in states', '? a\n? b\n: c\n? d\n:\n: e\n');
  add('explicit key then implicit', '? a\n: b\nc: d\n? [e]: f\n');
  add('explicit key on same line value', '? a : b\n');
  add('explicit empty key', '?\n: a\n');
  add('explicit key with comment', '? a # c\n: b # d\n');
  add('explicit key map value indent', '? a\n: b: c\n  d: e\n');
  add('yaml 1.1 stringify', '%YAML 1.1\n---\n? [190:20:30, -1:30, 1:30.5, 100000:00, -0b11, -017, -0x1F, 0b0, !!bool "yes", !!bool "x", y, n, 2001-12-14, 2001-12-14t21:59:43.10-05:00, !!binary "aGk="]\n: x\n');
  add('yaml 1.1 sets and merges', '%YAML 1.1\n---\na: &a {x: 1}\nb: !!set {? *a , <<: }\n');

  add('key with key comments', '? {a # c\n  : b, ? d # e\n  , f # g\n  : h}\n: x\n');
  add('key with value comments and blank lines', '? {a:\n\n    b, c: # d\n    e, f:\n\n    # g\n    h}\n: x\n');
  add('key seq with comment after last', '? [a, b # c\n  ]\n: x\n');
  add('key explicit keys with comments', '? {? [a] # c\n  : b, ? {d: e} # f\n  }\n: x\n');
  add('key flow map with empty values', '? {a: , b: , : c}\n: x\n');

  // Issue 20: each cause of a difference that the random corpus found.
  // A: Node's base64 reads the low byte of each UTF-16 code unit.
  add('issue 20 A binary U+013D reads as =', "!!binary 'abcdĽefgh'\n");
  add('issue 20 A binary CJK reads as -', "!!binary 'ab中cdefgh'\n");
  add('issue 20 A binary non-BMP reads as = and NUL', "!!binary 'ab😀cdefgh'\n");
  add('issue 20 A binary Latin-1 skipped', "!!binary 'aGVsbG8éÿ='\n");
  // B: a tag with a test (the 1.1 merge tag's default is "key") resolves
  // a scalar by name only when its test matches.
  add('issue 20 B 1.1 merge tag on a scalar', '%YAML 1.1\n---\n- !!merge x\n- !!merge <<\n');
  add('issue 20 B 1.1 merge tag on an empty value', '%YAML 1.1\n---\na: !!merge\n');
  add('issue 20 B 1.1 merge by an unknown tag on <<', '%YAML 1.1\n---\na: &a {x: 1}\nb: {!!mrege <<: *a, y: 2}\n');
  // C: a tag's stringify may throw: !!timestamp of a string.
  add('issue 20 C 1.1 timestamp of a string in a key', '%YAML 1.1\n---\n[!!timestamp 1]: 1\n');
  add('issue 20 C 1.1 timestamp on a collection in a key', '%YAML 1.1\n---\n[!!timestamp [a]]: 1\n');
  // D: a set as a key is written with its items all null.
  add('issue 20 D set key with an empty value', '? !!set {a: }\n: 1\n');
  add('issue 20 D set key block', '? !!set\n  ? a\n  ? b:\n: 1\n');
  // E: a collection with a scalar tag is written by that tag, whose value
  // is undefined.
  add('issue 20 E str tag on a map in a key', '{[!!str {}]: 1}\n');
  add('issue 20 E scalar tags on collections in a key', '[!!int [1], !!float {a: 1}, !!null [], !!bool {}, !!int 0x1F]: 1\n');
  add('issue 20 E binary tag on a collection in a key', 'a: !!binary aGk=\n[!!binary [x], !!binary {}]: 1\n');
  // F: a Set and a Map hold -0 as +0.
  add('issue 20 F set of -0', '!!set {-0}\n');
  add('issue 20 F omap of -0', '!!omap [-0]\n');
  add('issue 20 F omap -0 then 0', '!!omap [-0: a, 0: b]\n');
  // G: merge sources are read one after another.
  add('issue 20 G merge of its own ancestor then a scalar', '%YAML 1.1\n---\nx: &b\n  - a: 1\n    <<: *b\n  - x\n');
  // H: Date.UTC's month below 0 is in the year before.
  add('issue 20 H timestamp month 0', 'a: !!timestamp 1970-0-01\n');
  add('issue 20 H timestamp year past 9999 in a key', '[!!timestamp 9999-99-99 99:99:99]: 1\n!!timestamp 9999-99-99: 2\n');
  // I: a Set merged is read as [key, value] pairs of its members.
  add('issue 20 I merge of a set', '- &s !!set {x}\n- !!merge <<: *s\n');
  add('issue 20 I merge of a set of iterables', "- &s !!set {'', ab, '😀x', [], [a], [[b, c], d], !!binary aGk=, !!omap [k: v, k2: v2]}\n- !!merge <<: *s\n");
  add('issue 20 I merge of a set of a lone surrogate', '- &s !!set {"\\ud800x", "\\udc00"}\n- !!merge <<: *s\n');
  add('issue 20 I merge of a set of a number', '- &s !!set {1}\n- !!merge <<: *s\n');
  add('issue 20 I merge of a set of a map', '- &s !!set {{a: 1}}\n- !!merge <<: *s\n');
  add('issue 20 I merge of a set then a key', '{!!merge <<: !!set {ab}, a: 1}\n');
  // J: an omap or pairs merged is a sequence of pairs, no maps.
  add('issue 20 J merge of an omap', '!!merge <<: !!omap [a: 1]\n');
  add('issue 20 J merge of an empty omap', '!!merge <<: !!omap []\n');
  add('issue 20 J merge of pairs', '!!merge <<: !!pairs [a: 1]\n');
  // K: a comment before an omap's pair is the pair key's alone.
  add('issue 20 K omap item comment in a key', '? !!omap\n  - # c\n    a: 1\n: x\n');
  add('issue 20 K pairs item comments in a key', '? !!pairs\n  - # c\n    a: 1 # d\n  - b\n: x\n');
  // L: an error's end is offset + source.length in code units, the
  // flow-error-end's "\x18" included, which is not in the text.
  add('issue 20 L flow error end before a wide character', "a:\n - [a,\n ÿÿ]: x\n");
  // M: offsets that yaml computes may fall inside a surrogate pair, and go
  // on from there.
  add('issue 20 M flow end after a comment with a non-BMP character', '[{{}]\n# é 😀\n\n');
  add('issue 20 M duplicate key inside a surrogate pair', 'root: : [1.2.3, {}: {y: *a0},\r\n  : [<<: ]}, 𝄞: ]\r\n');
  // N: a comment's lines end at \r, U+2028 and U+2029 too, as a regular
  // expression's m flag sees them.
  add('issue 20 N comment with a carriage return in a key', '? - a #\rb\n  ');
  add('issue 20 N comment with line separators in a key', '? - a # x\u2028y\u2029z\n  - b\n: 1\n');
  add('issue 20 N document marker after a carriage return in a key', '["x\\r--- y", "x\\u2028...", "\\r%"]: 1\n');
  // O: an empty map in an omap is a pair of a null key and no value.
  add('issue 20 O omap of an empty map', '[!!omap [{}, "𝄞", a: {}]]\n');
  // P: a key that is an alias of its own ancestor, merged, is named by what
  // the ancestor holds so far.
  add('issue 20 P merge source keyed by its ancestor', '&a0 [[{!!merge <<: {*a0 : x, b: y}}]]\n');
  // Q: joining an array that holds a Symbol throws.
  add('issue 20 Q merge source keyed by a list of a symbol', 'a: {!!merge <<: {[!!merge <<]: 1}}\n');

  // Errors thrown while building the value, from inside each construction.
  add('throw alias in seq', 'a: [1, *x]\n');
  add('throw alias in map value', 'a: {b: *x}\n');
  add('throw alias as key', 'a: {*x : 1}\n');
  add('throw alias in key collection', '[*x]: 1\n');
  add('throw alias in omap key', 'a: !!omap [*x : 1]\n');
  add('throw alias in omap value', 'a: !!omap [k: *x]\n');
  add('throw alias in set', 'a: !!set {? *x }\n');
  add('throw alias in pairs', 'a: !!pairs [k: *x]\n');
  add('throw alias in merge', 'a: {!!merge <<: *x}\n');
  add('throw alias in merge seq', 'a: {!!merge <<: [*x]}\n');
  add('throw alias in merge source key', 'a: {!!merge <<: {*x : 1}}\n');
  add('throw alias in merge source value', 'a: {!!merge <<: {k: *x}}\n');
  add('throw alias in nested merge', 'a: {!!merge <<: {!!merge <<: *x}}\n');
  add('throw alias count in key', 'a: &a [1]\n? [' + Array(101).fill('*a').join(', ') + ']\n: x\n');
  add('throw alias count in merge', 'a: &a {x: 1}\nb: [' + Array(99).fill('*a').join(', ') + ']\nc: {!!merge <<: [*a, *a]}\n');
  add('throw merge source in set', 'a: !!set {!!merge << : }\n');
  add('merge into set', 'a: &a {x: 1, y: 2}\nb: !!set {? !!merge << }\n');
  add('merge seq of aliases', 'a: &a {x: 1}\nb: &b {y: 2}\nc: {!!merge <<: [*a, *b, {z: 3}], w: 4}\n');
  add('merge nested in source', 'a: &a {x: 1}\nb: &b {!!merge <<: *a, y: 2, x: 0}\nc: {!!merge <<: *b}\nd: {!!merge <<: {!!merge <<: *b, q: 1}}\n');
  add('merge keys of all kinds', 'c: {!!merge <<: {~: a, true: b, 1.5: c, [x, [y]]: d, {k: v}: e, "s": f, !!binary aGk=: g, !!timestamp 2001-01-01: h, [~, 1]: i}}\n');
  add('alias counts nested anchors', 'a: &a [1]\nb: &b [*a, *a]\nc: &c {k: *b, l: *a}\nd: [*c, *c, *b, *a]\ne: &e []\nf: [*e, *e]\n');

  // Tags beyond the core schema.
  add('binary block', 'a: !!binary |\n  R0lGODlhDAAMAIQAAP//9/X\n  17unp5WZmZgAAAOfn515eXv\n');
  add('binary odd', 'a: !!binary "aGVsbG8"\nb: !!binary "a"\nc: !!binary "aGV=sbG8="\nd: !!binary "-_-_"\ne: !!binary ""\n');
  add('timestamps', 'a: !!timestamp 2001-12-14t21:59:43.10-05:00\nb: !!timestamp 2001-12-14 21:59:43.10 -5\nc: !!timestamp 2001-12-15 2:59:43.10\nd: !!timestamp 2002-12-14\ne: !!timestamp 0050-01-01\nf: !!timestamp 2001-13-45\ng: !!timestamp 2001-01-01T00:00:00+05:30\nh: !!timestamp 2001-01-01 1:2:3.123456Z\n');
  add('timestamp bad', 'a: !!timestamp 2001-1-1x\n');
  add('set with values', 'a: !!set {x: 1}\n');
  add('set on seq', 'a: !!set [x]\n');
  add('set block', 'a: !!set\n  ? x\n  ? y\n  ? 1\n');
  add('set duplicate values', 'a: !!set {1, "1", ~}\n');
  add('omap block', 'a: !!omap\n  - x: 1\n  - y: 2\n');
  add('omap duplicate', 'a: !!omap [x: 1, x: 2]\n');
  add('omap with two pairs in item', 'a: !!omap\n  - x: 1\n    y: 2\n');
  add('omap non map item', 'a: !!omap [x, y: 2]\n');
  add('pairs on map', 'a: !!pairs {x: 1}\n');
  add('merge core seq', 'a: &a {x: 1, y: 2}\nb: &b {y: 3, z: 4}\nc:\n  !!merge <<: [*a, *b]\n  w: 5\n');
  add('merge core override', 'a: &a {x: 1}\nc:\n  x: 0\n  !!merge <<: *a\n');
  add('merge core scalar', 'a: &a 1\nc:\n  !!merge <<: *a\n');
  add('merge core inline map', 'c:\n  !!merge <<: {x: 1, [k]: 2, ~: 3, 1: 4}\n');
  add('merge core nested', 'a: &a {x: 1}\nb: &b {!!merge <<: *a, y: 2}\nc: {!!merge <<: *b}\n');
  add('merge value symbol', 'a: !!merge <<\nb: [!!merge <<]\n');
  add('merge quoted in 1.1', '%YAML 1.1\n---\na: &a {x: 1}\nb: {"<<": *a}\nc: {<<: *a}\n');
  add('yaml 1.1 everything', '%YAML 1.1\n---\nbools: [y, Y, yes, Yes, YES, n, N, no, No, NO, on, On, ON, off, Off, OFF, true, false]\nints: [0b1_0, -0b11, 0_17, -017, 08, 1_000, -1_0, 0x_1F, 190:20:30, -1:30]\nfloats: [1_0.5, 1.5e3, .5e-2, 1:30.5, ., 1., 6.8523015e+5, 685.230_15e+03]\nts: [2001-12-14, 2001-12-14t21:59:43.10-05:00]\nnulls: [~, null, ""]\n');
  add('yaml 1.1 keys', '%YAML 1.1\n---\n? [yes, off, 0b11, 017, 1_000, 190:20:30, 1.5e3, 2001-12-14, 1_0.50, <<]\n: x\nyes: 1\n017: 2\n');
  add('yaml 1.1 then 1.2', '%YAML 1.1\n---\na: yes\n...\n%YAML 1.2\n---\nb: yes\n');
  add('yaml 1.1 merge chain', '%YAML 1.1\n---\na: &a {x: 1}\nb: &b {<<: *a, y: 2}\nc:\n  <<: [*b, {z: 3}]\n  x: 0\n');
  add('yaml 1.1 merge bad', '%YAML 1.1\n---\na: {<<: [1]}\n');

  // Alias expansion.
  add('alias count nested', 'a: &a [1, 2]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n');
  add('alias count nested over', 'a: &a [1, 2]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n');
  add('alias of map many', 'a: &a {x: 1}\nb: [' + Array(99).fill('*a').join(', ') + ']\n');
  add('alias of map too many', 'a: &a {x: 1}\nb: [' + Array(100).fill('*a').join(', ') + ']\n');

  // Streams and markers.
  add('doc end twice', 'a: 1\n...\n...\n');
  add('doc start twice', '---\n---\n');
  add('block scalar doc', '--- |\n  x\n...\n');
  add('folded doc', '--- >-\n  a\n  b\n');
  add('doc end with content after', 'a\n... x\n');
  add('bom then directive', '\ufeff%YAML 1.2\n---\na: 1\n');
  add('tag handle primary', '%TAG ! tag:example.com,2000:\n---\na: !foo x\n');
  add('directive comment no space', '%YAML 1.2#c\n---\na: 1\n');
  add('crlf flow', 'a: [\r\n  1,\r\n  2\r\n]\r\nb: {x: 1,\r\n  y: 2}\r\n');
  add('crlf quoted escapes', 'a: "x\\\r\n  y \r\n  z"\r\n');
  add('crlf block keep', 'a: |+\r\n  x\r\n\r\nb: 1\r\n');
  add('cr in plain', 'a: x\ry\n');

  // Generated: fragments joined at random, for breadth.
  for (const r of randomCases(1500, 12345)) add(r.name, r.src);
  for (const r of structuredCases(500, 777)) add(r.name, r.src);
  return c;
};

const frags = ['a', 'b', 'key', '1', '0x1F', '~', 'true', ':', ': ', '- ', '-', '? ', '?', ',', ', ', '[', ']', '{', '}',
  '"', '"x"', "'", "'y'", '#c', ' #c', '&a ', '*a', '*a ', '!!str ', '!t ', '|', '>', '|-', '>+2', '\n', '\n', '\n', '\n  ',
  '\n    ', ' ', '  ', '\t', '---', '...', '%YAML 1.2', '\r\n', '\\', '"\\n"', 'x y', '<<', '@', '`', '%', '\ufeff', 'é', '😀'];

// randomCases joins n random runs of fragments, from a seeded generator so
// that the corpus is the same on every run.
function randomCases(n, seed) {
  const rand = prng(seed);
  const out = [];
  for (let i = 0; i < n; i++) {
    const k = 1 + Math.floor(rand() * 14);
    let s = '';
    for (let j = 0; j < k; j++) s += frags[Math.floor(rand() * frags.length)];
    out.push({ name: 'random ' + i, src: s });
  }
  return out;
}


const scalars = ['a', 'hello world', '1', '-0', '0x1F', '0o17', '017', '1.50', '1e3', '.inf', '.nan', 'true', 'False', '~', 'null', '',
  '"dq"', '"esc\\t\\u00e9\\x41"', "'sq''s'", '"multi\n  line"', 'plain\n  multi', 'yes', '<<', 'é✓', '😀', '"\\ud83d\\ude00"',
  'a: b', '!!str 1', '!!int "2"', '! x', '!foo y', 'http://x/y?z#f', '- x', '[]', '{}'];

// structuredCases builds n documents of nested maps and sequences, block
// and flow, with random scalars, anchors, aliases, comments and line ends.
function structuredCases(n, seed) {
  const rand = prng(seed);
  const pick = (a) => a[Math.floor(rand() * a.length)];
  const out = [];
  for (let i = 0; i < n; i++) {
    const anchors = [];
    const scalar = () => {
      let s = pick(scalars);
      if (s.startsWith('- ') || s === 'a: b') s = '"' + s + '"';
      if (rand() < 0.1 && anchors.length) return '*' + pick(anchors);
      if (rand() < 0.1) {
        const a = 'a' + anchors.length;
        anchors.push(a);
        return '&' + a + ' ' + s;
      }
      return s;
    };
    const flow = (d) => {
      if (d > 2 || rand() < 0.4) return scalar().replace(/\n/g, ' ');
      if (rand() < 0.5) return '[' + Array.from({ length: Math.floor(rand() * 4) }, () => flow(d + 1)).join(', ') + ']';
      return '{' + Array.from({ length: Math.floor(rand() * 4) }, (_, k) => 'k' + k + ': ' + flow(d + 1)).join(', ') + '}';
    };
    const block = (d, ind) => {
      const pad = ' '.repeat(ind);
      const r = rand();
      if (d > 3 || r < 0.25) return ' ' + (rand() < 0.5 ? flow(d) : scalar().replace(/\n/g, '\n' + pad + '  ')) + '\n';
      if (r < 0.35) return ' |' + pick(['', '-', '+']) + '\n' + pad + '  line one\n' + pad + '  line two\n';
      const items = 1 + Math.floor(rand() * 3);
      let s = rand() < 0.2 ? ' # c\n' : '\n';
      const seq = rand() < 0.4;
      for (let k = 0; k < items; k++) {
        s += pad + (seq ? '-' : 'k' + k + ':') + block(d + 1, ind + 2);
        if (rand() < 0.1) s += pad + '# comment\n';
        if (rand() < 0.05) s += '\n';
      }
      return s;
    };
    let doc = 'root:' + block(0, 2);
    if (rand() < 0.2) doc = doc.replace(/\n/g, '\r\n');
    if (rand() < 0.1) doc = '\ufeff' + doc;
    if (rand() < 0.1) doc = '---\n' + doc;
    out.push({ name: 'structured ' + i, src: doc });
  }
  return out;
}

module.exports.randomCases = randomCases;
module.exports.structuredCases = structuredCases;

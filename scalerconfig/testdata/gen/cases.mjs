// The cases of ../load.json: a set of files, the main file and the drop-in
// folder, each loaded as the orchestrator loads them.

const MAIN = 'scalers.yaml';

// one is a case of a single main file.
const one = (name, text, note) => ({ name, note, files: { [MAIN]: text }, main: MAIN });

// scaler wraps the lines of one scaler entry (indented by four) in a file.
const scaler = (lines) => `version: 1\nscalers:\n  - ${lines.trim().replace(/\n/g, '\n    ')}\n`;

const AGENT = 'ghcr.io/kici-dev/kici-agent:0.20.0';
const CONTAINER = `name: local
type: container
maxAgents: 2
labelSets:
  - labels: [docker, linux]
    image: ${AGENT}`;

// container is a valid container scaler with more lines appended to its
// first label set (indented by four) and to the scaler (by two).
const container = (labelSetLines = '', scalerLines = '', labels = '[docker, linux]') =>
  scaler(
    CONTAINER.replace('[docker, linux]', labels) +
      (labelSetLines ? '\n    ' + labelSetLines.trim().replace(/\n/g, '\n    ') : '') +
      (scalerLines ? '\n' + scalerLines.trim() : ''),
  );

const FIRECRACKER = `name: vm
type: firecracker
maxAgents: 1
firecrackerPath: /usr/bin/firecracker
jailerPath: /usr/bin/jailer
kernelPath: /srv/vmlinux
uid: 1000
gid: 1000
labelSets:
  - labels: [vm]
    rootfsPath: /srv/rootfs.ext4`;

export const cases = [
  // Valid configs and what loading makes of them.
  one('minimal', container(), 'every default applied'),
  one(
    'every field',
    `version: 1
globalMaxAgents: 20
defaults:
  resources: {requests: {cpus: 1, memory: 1g}, limits: {cpus: 2, memory: 2g}}
globalResourceCap: {maxCpu: 64, maxMemory: 128g}
machinePools:
  - name: shared
    cap: {maxCpu: 16.5, maxMemory: 1.5g}
firecracker:
  cidr: 10.1.0.0/24
  autoProvisionHost: false
scalers:
  - name: local
    type: container
    maxAgents: 4
    maxConcurrentSpawns: 3
    host: tcp://docker:2375
    socketPath: /run/podman.sock
    runtime: podman
    orchestratorUrl: http://orch:4000
    extraHosts: ["registry:10.0.0.5"]
    networkIsolation: false
    warmPool: {enabled: true, size: 2}
    mandatoryLabels: [GPU]
    platform: {os: linux, arch: arm64}
    roles: [builder]
    resourceCap: {maxCpu: 8}
    machinePool: shared
    enforceCgroups: true
    chrootBaseDir: /srv/j
    requireSudo: true
    claimTtlSeconds: 60
    agentTokenTtlSeconds: 120
    labelSets:
      - labels: [Docker, GPU, arm64]
        image: ${AGENT}
        imagePullPolicy: Always
        binaryPath: /usr/bin/kici-agent
        resources: {cpus: 2, memory: 4g}
        volumes: [/cache:/cache]
        containerSocket: true
        env: {B: b, "10": ten, "2": two, A: a}
        backpressureMode: drop
        networkPolicy:
          allowlist: [10.0.0.0/8]
          denyAll: true
          hostAccess: ["5000", "10.0.0.1:53", "*:*", "172.17.0.0/16"]
        rootfsPath: /r
        kernelPath: /k
        vcpuCount: 4
        memSizeMib: 2048
        overlayDriveSizeMib: 1024
  - ${FIRECRACKER.replace(/\n/g, '\n    ')}
    vcpuCount: 4
    memSizeMib: 1024
    extraHosts: ["a:host-gateway", "b.example:fe80::1%eth0", "c:192.168.1.1"]
  - name: metal
    type: bare-metal
    maxAgents: 1
    labelSets:
      - labels: [Metal, " Windows "]
        binaryPath: /opt/kici-agent
      - labels: [job-image]
        image: alpine
  - name: cloud
    type: event
    maxAgents: 3
    provisioningTargets: [org/infra]
    labelSets:
      - labels: [cloud]
`,
  ),
  one(
    'labels canonical',
    container('', '', `[" Docker ", LINUX, "\\u03A3\\u0391\\u03A3", "\\u0130stanbul", "\\u212Aelvin", "x\\u0085", "\\uFEFFbom\\u3000", "\\u1E9E"]`),
    'trim() then toLowerCase(): U+0085 is not trimmed, U+FEFF and U+3000 are; final sigma; İ becomes i and a combining dot; the Kelvin sign becomes k',
  ),
  one('flat resources', container('resources: {cpus: 2, memory: 4g}'), 'the flat form is both requests and limits'),
  one('flat resources memory only', container('resources: {memory: 512m}')),
  one('flat resources cpus only in defaults', `version: 1\ndefaults:\n  resources: {cpus: 0.5}\nscalers: []\n`),
  one('nested resources limits only', container('resources:\n  limits: {cpus: 1.5}')),
  one('empty resources', container('resources: {}'), 'an empty object is the nested form with neither'),
  one('empty defaults', `version: 1\ndefaults: {}\nscalers: []\n`),
  one('roles all', container('', 'roles: [all]'), 'all means every role: roles is left out'),
  one('roles builder and all', container('', 'roles: [builder, all]')),
  one('roles empty', container('', 'roles: []'), 'an empty list means execution only'),
  one('roles duplicated', container('', 'roles: [init-runner, builder, init-runner]')),
  one('env key order', container('env: {Z: z, "10": ten, "2": two, "01": zero-one, A: a, "4294967294": big, "4294967295": notindex}'), 'array-index keys first, ascending, then the others in source order'),
  one('env empty', container('env: {}')),
  one('mandatory labels folded', container('', 'mandatoryLabels: [" GPU"]', '[GPU, docker]')),
  one('kici prefix after spaces passes', container('', '', '["  kici:x", docker]'), 'the reserved check lower-cases the raw label without trimming it'),
  one('yaml numbers', container('', 'maxConcurrentSpawns: 017\nvcpuCount: 0x10\nmemSizeMib: 1e3\nclaimTtlSeconds: 2.0\nuid: -0\ngid: 0o17'), 'YAML 1.2 core schema: 017 is 17, 0x10 is 16, 0o17 is 15'),
  one('warm pool defaults', container('', 'warmPool: {}')),
  one('warm pool idle zero', container('', 'warmPool: {idleTimeoutSeconds: 0, size: 0}')),
  one('network policy defaults', container('networkPolicy: {}')),
  one('host access empty', container('networkPolicy: {hostAccess: []}'), 'an empty list denies every host service'),
  one('firecracker network defaults', `version: 1\nfirecracker: {}\nscalers: []\n`),
  one('empty scalers', 'version: 1\nscalers: []\n'),
  one('merge key is a plain key', container('<<: {image: x}'), 'yaml v2 with the core schema reads << as an ordinary key'),
  one('merge key at top level', 'version: 1\n<<: {globalMaxAgents: 3}\nscalers: []\n'),
  one('bom and crlf', '\uFEFFversion: 1\r\nscalers:\r\n  - name: a\r\n    type: container\r\n    maxAgents: 1\r\n    labelSets:\r\n      - labels: [x]\r\n        image: y\r\n'),
  one('aliases', `version: 1\nx: &ls\n  labels: [A]\n  image: img\nscalers:\n  - name: a\n    type: container\n    maxAgents: 1\n    labelSets: [*ls, *ls]\n`),
  one('bare metal image only', scaler('name: m\ntype: bare-metal\nmaxAgents: 1\nlabelSets:\n  - labels: [m]\n    image: alpine')),
  one('unknown top-level keys are dropped', 'version: 1\nscaler: []\nscalers: []\nextra: {a: 1}\n__proto__: {x: 1}\n'),
  one('unknown keys in stripping objects', container('networkPolicy: {denyAll: true, mode: strict}', 'warmPool: {enabled: true, size: 1, spare: 3}') .replace('version: 1', 'version: 1\ndefaults: {resources: {cpus: 1}, extra: 2}\nfirecracker: {table: t, zone: z}')),
  one('idle timeout negative zero', container('', 'warmPool: {idleTimeoutSeconds: -0.0}')),
  one('float values', container('resources: {cpus: 0.25}', 'warmPool: {idleTimeoutSeconds: 1.5e-3}')),

  // The typo configs the orchestrator refuses.
  one('typo scaler', 'version: 1\nscaler:\n  - name: local\n    type: container\n    maxAgents: 1\n    labelSets: [{labels: [x], image: y}]\n', 'the top level strips unknown keys, so the typo shows as scalers missing'),
  one('typo imagee', container().replace('    image:', '    imagee:')),
  one('typo pull policy', container('imagePullPolicy: IfNotPresnt')),
  one('typo type', container().replace('type: container', 'type: Container')),
  one('second document', container() + '---\nversion: 1\nscalers: []\n'),
  one('document end marker only', container() + '...\n', 'one document, ended'),

  // Enums.
  one('bad runtime', container('', 'runtime: containerd')),
  one('bad backpressure', container('backpressureMode: block')),
  one('bad platform os', container('', 'platform: {os: darwin, arch: x64}')),
  one('bad platform arch', container('', 'platform: {os: linux, arch: amd64}')),
  one('platform missing arch', container('', 'platform: {os: linux}')),
  one('platform unknown key', container('', 'platform: {os: linux, arch: x64, libc: musl}')),
  one('bad role', container('', 'roles: [builder, admin]')),
  one('kubernetes type', container().replace('type: container', 'type: kubernetes'), 'the schema excludes kubernetes'),
  one('type missing', container().replace('    type: container\n', '')),
  one('pull policy null', container('imagePullPolicy: null')),
  one('pull policy lower case', container('imagePullPolicy: always')),

  // Version.
  one('version missing', container().replace('version: 1\n', '')),
  one('version 2', container().replace('version: 1', 'version: 2')),
  one('version string', container().replace('version: 1', 'version: "1"')),
  one('version float one', container().replace('version: 1', 'version: 1.0')),

  // Numbers: no coercion, integers, ranges.
  one('max agents string', container().replace('maxAgents: 2', 'maxAgents: "3"')),
  one('max agents float', container().replace('maxAgents: 2', 'maxAgents: 1.5')),
  one('max agents zero', container().replace('maxAgents: 2', 'maxAgents: 0'), 'a range issue does not stop the refinement: the image rule still runs'),
  one('max agents negative float', container().replace('maxAgents: 2', 'maxAgents: -1.5'), 'the int check aborts: no positive check after it'),
  one('max agents negative', container().replace('maxAgents: 2', 'maxAgents: -1')),
  one('max agents beyond safe integers', container().replace('maxAgents: 2', 'maxAgents: 1e20')),
  one('max agents below safe integers', container().replace('maxAgents: 2', 'maxAgents: -1e20')),
  one('max agents infinity', container().replace('maxAgents: 2', 'maxAgents: .inf')),
  one('max agents minus infinity', container().replace('maxAgents: 2', 'maxAgents: -.Inf')),
  one('max agents nan', container().replace('maxAgents: 2', 'maxAgents: .nan')),
  one('max agents missing', container().replace('    maxAgents: 2\n', '')),
  one('max agents null', container().replace('maxAgents: 2', 'maxAgents:')),
  one('max agents yes', container().replace('maxAgents: 2', 'maxAgents: yes')),
  one('max agents bool', container().replace('maxAgents: 2', 'maxAgents: true')),
  one('max agents list', container().replace('maxAgents: 2', 'maxAgents: [2]')),
  one('max agents map', container().replace('maxAgents: 2', 'maxAgents: {n: 2}')),
  one('cpus zero', container('resources: {limits: {cpus: 0}}')),
  one('cpus too big', container('resources: {limits: {cpus: 256.5}}')),
  one('cpus 256', container('resources: {limits: {cpus: 256}}')),
  one('flat cpus too big', container('resources: {cpus: 300}'), 'both union options fail without aborting: "Invalid input"'),
  one('flat cpus string', container('resources: {cpus: "2"}'), 'the flat option aborts, so the union answers with the nested option\'s unrecognized key'),
  one('flat and nested mixed', container('resources: {cpus: 1, limits: {cpus: 1}}')),
  one('nested requests not an object', container('resources: {requests: 5}')),
  one('resources null', container('resources: null')),
  one('resources list', container('resources: [1]')),
  one('resources memory empty', container('resources: {memory: ""}'), 'hostconfig.ResourceSpec cannot tell an empty memory from none'),
  one('resource spec unknown key', container('resources: {limits: {cpus: 1, gpu: 1}}')),
  one('warm pool size negative', container('', 'warmPool: {size: -1}')),
  one('warm pool size float', container('', 'warmPool: {size: 1.5, enabled: "yes"}')),
  one('warm pool null', container('', 'warmPool: null')),
  one('vcpu count zero on label set', container('vcpuCount: 0')),
  one('uid float', container('', 'uid: 0.5')),
  one('uid big', container('', 'uid: 9007199254740993')),
  one('uid negative', container('', 'uid: -5')),
  one('global max agents zero', container().replace('version: 1', 'version: 1\nglobalMaxAgents: 0')),
  one('bool yes is a string', container('containerSocket: yes')),
  one('bool on is a string', container('', 'networkIsolation: on')),
  one('bool True', container('containerSocket: True')),
  one('env value number', container('env: {A: 1, B: "2", C: null, D: [x]}')),
  one('env not a map', container('env: [A=1]')),
  one('env null', container('env: null')),
  one('env odd keys', container('env: {"A.B": 1, "c d": 2, "1": 3, "_x$": 4, "é": 5}'), 'the path quotes keys with characters beyond \\w and $'),
  one('env proto key', container('env: {__proto__: 1, A: a}'), 'a record skips __proto__'),
  one('env non-string key', container('env: {1: one, true: yes, null: n}')),
  one('string for number list', container('volumes: [1, true, null]')),

  // Arrays and lengths.
  one('labels empty', container('', '', '[]')),
  one('labels string', container('', '', 'abc')),
  one('labels empty string', container('', '', '""'), 'min(1) runs on any value with a length'),
  one('labels number item', container('', '', '[a, 1]')),
  one('labels reserved and number', container('', '', '[kici:x, 1]'), 'an item of the wrong type aborts: the reserved rule does not run'),
  one('labels object with length', container('', '', '{length: 0}')),
  one('labels object with string length', container('', '', '{length: "x"}')),
  one('labels object with list length', container('', '', '{length: [3]}')),
  one('labels object with null length', container('', '', '{length: null}')),
  one('labels object with an own toString', container('', '', '{length: {toString: 1}}'), 'JavaScript cannot turn the object into a number: a TypeError, not a zod issue'),
  one('labels object with a list of such objects', container('', '', '{length: [{toString: 1}, 2]}')),
  one('labels object with an own valueOf', container('', '', '{length: {valueOf: 1}}'), 'valueOf is not callable, so toString is used: NaN'),
  one('labels missing', container().replace('- labels: [docker, linux]\n        image:', '- image:')),
  one('label sets empty', scaler('name: a\ntype: container\nmaxAgents: 1\nlabelSets: []')),
  one('label sets missing', scaler('name: a\ntype: container\nmaxAgents: 1')),
  one('label sets empty string', scaler('name: a\ntype: container\nmaxAgents: 1\nlabelSets: ""')),
  one('label set not a map', scaler('name: a\ntype: container\nmaxAgents: 1\nlabelSets: [x]')),
  one('scalers null', 'version: 1\nscalers:\n'),
  one('scalers map', 'version: 1\nscalers: {a: 1}\n'),
  one('scaler null', 'version: 1\nscalers:\n  -\n'),
  one('provisioning targets nested list', scaler('name: e\ntype: event\nmaxAgents: 1\nprovisioningTargets: [[], [x], ""]\nlabelSets: [{labels: [e]}]')),
  one('provisioning targets object with length', scaler('name: e\ntype: event\nmaxAgents: 1\nprovisioningTargets: [{length: 0}, {length: 1}, {length: true}, {length: "0x0"}, {length: " 1 "}, {length: []}, {length: [[2]]}, {length: [1, 2]}]\nlabelSets: [{labels: [e]}]')),
  one('provisioning target empty', scaler('name: e\ntype: event\nmaxAgents: 1\nprovisioningTargets: [org/a, ""]\nlabelSets: [{labels: [e]}]')),
  one('name missing', container().replace('name: local\n    type: container', 'type: container')),
  one('name number', container().replace('name: local', 'name: 5')),

  // Whole-file shapes.
  one('empty file', ''),
  one('comment only file', '# nothing\n'),
  one('file is a list', '- a\n- b\n'),
  one('file is a string', 'hello\n'),
  one('file is a number', '42\n'),

  // The orchestrator's own rules.
  one('event without targets', scaler('name: cloud\ntype: event\nmaxAgents: 1\nlabelSets: [{labels: [c]}]')),
  one('event with empty targets', scaler('name: cloud\ntype: event\nmaxAgents: 1\nprovisioningTargets: []\nlabelSets: [{labels: [c]}]')),
  one('container without image', container().replace(`\n        image: ${AGENT}`, '') + '      - labels: [b]\n        image: ""\n'),
  one('bare metal without binary', scaler('name: m\ntype: bare-metal\nmaxAgents: 1\nlabelSets:\n  - labels: [m]\n  - labels: [n]\n    binaryPath: ""\n    image: ""')),
  one('reserved label', container('', '', '[docker, KICI:os:linux]')),
  one('reserved kelvin', container('', '', '["\\u212Aici:x"]'), 'toLowerCase maps the Kelvin sign to k'),
  one('reserved mandatory label', container('', 'mandatoryLabels: [gpu, "Kici:role:builder"]', '[gpu, docker]'), 'the refinement fails, so the gate sees the raw labels'),
  one('mandatory platform labels', container('', 'mandatoryLabels: [arm64, macos]\nplatform: {os: macos, arch: arm64}')),
  one('mandatory windows label', container('', 'mandatoryLabels: [Windows]\nplatform: {os: windows, arch: x64}')),
  one('mandatory platform label on linux', container('', 'mandatoryLabels: [arm64]\nplatform: {os: linux, arch: x64}')),
  one('gate label unreachable', container('', 'mandatoryLabels: [gpu, GPU, ssd]')),
  one('gate from platform taints', container('', 'platform: {os: windows, arch: arm64}'), 'a structured platform is reachable: it is injected into every label set'),
  one('gate from labels', container('', '', '[Windows, ARM64]'), 'a label set whose own labels taint it can always reach them'),
  one('gate with unrecognized key', container('imagee: x', 'mandatoryLabels: [gpu]'), 'an unrecognized key does not abort: every refinement still runs'),
  one('firecracker missing fields', scaler('name: vm\ntype: firecracker\nmaxAgents: 1\nuid: 0\nlabelSets:\n  - labels: [vm]\n  - labels: [vm2]\n    rootfsPath: ""')),
  one('firecracker extra hosts', scaler(FIRECRACKER + '\nextraHosts: [nocolon, ":1.2.3.4", "h:", "-bad:1.2.3.4", "h:1.2.3", "h:01.2.3.4", "h:::1", "h:host-gateway", "h:fe80::1%en0", "h:1:2:3:4:5:6:7:8:9", "a.b-c.d:::ffff:1.2.3.4", "h_x:1.1.1.1"]')),
  one('extra hosts ignored on containers', container('', 'extraHosts: [nocolon]')),
  one('firecracker valid', scaler(FIRECRACKER)),
  one('machine pool unknown', container('', 'machinePool: ghost')),
  one('machine pool empty reference', container('', 'machinePool: ""').replace('version: 1', 'version: 1\nmachinePools: [{name: a, cap: {}}]')),
  one('machine pools duplicate', 'version: 1\nmachinePools:\n  - {name: a, cap: {}}\n  - {name: b, cap: {maxCpu: 1}}\n  - {name: a, cap: {}}\n  - {name: a, cap: {}}\nscalers: []\n'),
  one('machine pool name empty', 'version: 1\nmachinePools: [{name: "", cap: {}}]\nscalers: []\n'),
  one('machine pool without cap', 'version: 1\nmachinePools: [{name: a}]\nscalers: []\n'),
  one('machine pool unknown key', 'version: 1\nmachinePools: [{name: a, cap: {}, size: 2}]\nscalers: []\n'),
  one('resource cap bad memory', container('', 'resourceCap: {maxMemory: lots}'), 'the transform\'s issue aborts: the image rule does not run'),
  one('resource cap memory units', 'version: 1\nmachinePools:\n  - {name: k, cap: {maxMemory: 1024k}}\n  - {name: m, cap: {maxMemory: "1.5 M"}}\n  - {name: g, cap: {maxMemory: 2G}}\n  - {name: z, cap: {maxMemory: 0k}}\n  - {name: f, cap: {maxMemory: 0.0001k}}\nscalers: []\n'),
  one('resource cap memory with tab', 'version: 1\nglobalResourceCap: {maxMemory: "1\\tg"}\nscalers: []\n'),
  one('resource cap memory with nbsp', 'version: 1\nglobalResourceCap: {maxMemory: "1\\u00A0g"}\nscalers: []\n', '\\s is JavaScript white space'),
  one('resource cap memory with nel', 'version: 1\nglobalResourceCap: {maxMemory: "1\\u0085g"}\nscalers: []\n'),
  one('resource cap memory bad forms', 'version: 1\nmachinePools:\n  - {name: a, cap: {maxMemory: 1.g}}\n  - {name: b, cap: {maxMemory: .5g}}\n  - {name: c, cap: {maxMemory: 1t}}\n  - {name: d, cap: {maxMemory: "1g "}}\n  - {name: e, cap: {maxMemory: "\\uFF11g"}}\nscalers: []\n'),
  one('resource cap memory without unit', 'version: 1\nmachinePools:\n  - {name: a, cap: {maxMemory: "1024"}}\n  - {name: b, cap: {maxMemory: "1.5"}}\n  - {name: c, cap: {maxMemory: "g"}}\n  - {name: d, cap: {maxMemory: ""}}\nscalers: []\n'),
  one('resource cap unknown key', 'version: 1\nglobalResourceCap: {maxCpu: 1, maxMem: 2g}\nscalers: []\n', 'an unrecognized key does not stop the transform'),
  one('resource cap zero cpu', 'version: 1\nglobalResourceCap: {maxCpu: 0}\nscalers: []\n'),
  one('host access entries', container('networkPolicy:\n  hostAccess: ["", "  ", "abc", "1.2.3.4:x", "0", "70000", "1.2.3.4:0", "300.1.1.1", "1.2.3.4/33", "1.2.3.4/-1", "*:65535", " 22 ", "::1", "1.2.3.4:", "0080", "99999999999999999999"]')),
  one('host access edges', container('networkPolicy:\n  hostAccess: ["1", "*:1", ":80", "255.255.255.255/32", "256.1.1.1", "1.2.3.4/32:65535", "1.2.3.4:65536", "1.2.3.4/3", "01.02.003.4", "1.2.3", "1.2.3.4.5", "*"]')),
  one('host access not strings', container('networkPolicy: {hostAccess: ["", 5]}'), 'an item of the wrong type aborts the refinement'),
  // The rules 0.16.0 adds (config.ts at 84ac3cd): flat resources and plain
  // platform labels refused, and on a Windows host the batch-file
  // binaryPath of 0.14.0.
  one('flat resources block style', container('resources:\n  cpus: 2   # two\n  memory: 4g\n'), 'refused at the mapping, from 0.16.0'),
  one('flat memory beside requests', container('resources: {memory: 1g, requests: {cpus: 1}}')),
  one('flat cpus null', container('resources: {cpus: null}'), "'cpus' in value: the key, whatever its value"),
  one('resources a string', container('resources: 2g')),
  one('resources a list', container('resources: [cpus, 2]')),
  one('nested spec issues in order', container('resources: {limits: {memory: 5, cpus: 0}, requests: {cpus: x, mem: 1g}}'), "0.16.0's spec is checked cpus first"),
  one('nested resources requests and limits', container('resources:\n  requests: {memory: 1g, cpus: 1}\n  limits: {cpus: 2, memory: 4g}')),
  one('flat resources in defaults and a label set', 'version: 1\ndefaults:\n  resources: {cpus: 1, memory: 1g}\nscalers:\n  - ' + CONTAINER.replace(/\n/g, '\n    ') + '\n        resources: {memory: 2g}\n  - name: bad\n    type: container\n    maxAgents: 0\n    labelSets: [{labels: [macos]}]\n', "the label set's refusal aborts its scaler's refinement; the other scaler's run"),
  one('flat defaults stop the top level check', container('', 'machinePool: ghost').replace('version: 1', 'version: 1\ndefaults: {resources: {memory: 1g}}'), "the defaults' refusal aborts the config's refinement"),
  one('resources with a "<<" key', container('resources: {<<: {cpus: 1}, limits: {cpus: 2}}'), '"<<" is an ordinary key in YAML 1.2: no cpus is merged'),
  one('resources an ordered map', container('resources: !!omap [cpus: 1]'), 'a Map has no cpus property: the nested form reads it as empty'),
  one('plain platform label', container('', '', '[linux, ARM64]'), 'refused at the label, canonical in the message'),
  one('plain platform labels every one', container('', '', '[" Windows ", macos, Darwin, win32, aarch64, arm, arm64, linux, x64, amd64, arm7]')),
  one('plain platform label twice', container('', '', '[arm64, ARM64]')),
  one('plain platform labels in two label sets', scaler('name: mac\ntype: bare-metal\nmaxAgents: 1\nlabelSets:\n  - labels: [macos, xcode]\n    binaryPath: /opt/kici-agent\n  - labels: [linux]\n    binaryPath: /opt/kici-agent\n  - {labels: [darwin, arm64], binaryPath: /opt/kici-agent}')),
  one('plain platform label with platform', scaler('name: mac\ntype: bare-metal\nmaxAgents: 1\nplatform: {os: macos, arch: arm64}\nlabelSets:\n  - labels: [macos, xcode]\n    binaryPath: /opt/kici-agent')),
  one('windows label set on an x64 windows platform', container('', 'platform: {os: windows, arch: x64}', '[windows, arm64]'), 'the gate is the platform\'s: arm64 on the label set taints nothing from 0.16.0'),
  one('plain platform label with a bad platform', container('', 'platform: {os: freebsd, arch: x64}', '[arm64]'), 'the platform is there: no label is refused, the enum issue aborts the refinement'),
  one('plain platform label before the gate', container('', 'mandatoryLabels: [gpu]', '[linux, macos]')),
  one('mandatory platform label without platform', container('', 'mandatoryLabels: [arm64]', '[linux, arm64]')),
  {
    name: 'plain platform label and flat resources in a drop-in',
    files: {
      [MAIN]: container(),
      'd/a.yaml': 'scalers:\n  - name: arm\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [linux, arm64]\n        image: i\n        resources: {limits: {cpus: 1}}\n  - name: big\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [linux, big]\n        image: i\n        resources:\n          cpus: 4\n',
    },
    main: MAIN,
    dir: 'd',
  },
  one('plain platform label on an event scaler', scaler('name: cloud\ntype: event\nmaxAgents: 1\nlabelSets: [{labels: [windows]}]'), 'the event rule comes first'),
  { ...one('batch path on a windows host', scaler('name: windows-bare-metal\ntype: bare-metal\nmaxAgents: 2\nplatform: {os: windows, arch: x64}\nlabelSets: [{labels: [windows, bare-metal], binaryPath: "C:\\\\a&b\\\\kici-agent.cmd"}]'), 'refused from 0.14.0, on a Windows host only'), host: 'win32' },
  { ...one('batch path with a space on a windows host', scaler('name: windows-bare-metal\ntype: bare-metal\nmaxAgents: 2\nplatform: {os: windows, arch: x64}\nlabelSets: [{labels: [windows, bare-metal], binaryPath: "C:\\\\Program Files (x86)\\\\KiCI\\\\kici-agent.cmd"}]'), 'quoted: ( ) and the space are text to cmd.exe'), host: 'win32' },
  one('batch path on a linux host', scaler('name: windows-bare-metal\ntype: bare-metal\nmaxAgents: 2\nplatform: {os: windows, arch: x64}\nlabelSets: [{labels: [windows, bare-metal], binaryPath: "C:\\\\a&b\\\\kici-agent.cmd"}]')),
  { ...one('batch paths', scaler('name: w\ntype: bare-metal\nmaxAgents: 2\nplatform: {os: windows, arch: x64}\nlabelSets:\n  - {labels: [a], binaryPath: "C:\\\\100%\\\\k.BAT"}\n  - {labels: [b], binaryPath: "C:\\\\tools(1)\\\\k.Cmd"}\n  - {labels: [c], binaryPath: "C:\\\\Program Files\\\\x^y\\\\k.cmd"}\n  - {labels: [d], binaryPath: "C:\\\\a&b\\\\k.exe"}\n  - {labels: [e], binaryPath: "C:\\\\a,b\\\\k.cmd.txt"}\n  - {labels: [f], binaryPath: "", image: "i"}\n  - {labels: [g], binaryPath: "a=b\\tc;d.cmd"}\n  - {labels: [h], binaryPath: "C:\\\\a\\"b\\\\k.cmd"}\n  - {labels: [i], binaryPath: "C:\\\\ok\\\\k.cmd"}')), host: 'win32' },
  { ...one('order of a scaler\'s rules', scaler('name: m\ntype: bare-metal\nmaxAgents: 1\nmandatoryLabels: [gpu]\nlabelSets:\n  - labels: [macos, gpu]\n    binaryPath: "C:\\\\a|b\\\\k.cmd"\n  - labels: [x]\n  - labels: [arm64]\n    binaryPath: ""\n    image: ""').replace('version: 1\nscalers:\n', 'version: 1\nscalers:\n  - name: cloud\n    type: event\n    maxAgents: 1\n    labelSets: [{labels: [win32]}]\n'), "event, type, batch path, plain labels, gates: each label set's batch path after its binaryPath rule"), host: 'win32' },
  one('refinements skipped on abort', container().replace(`\n        image: ${AGENT}`, '').replace('maxAgents: 2', 'maxAgents: "2"')),
  one('refinements run on range issues', container().replace(`\n        image: ${AGENT}`, '').replace('maxAgents: 2', 'maxAgents: 0'), 'a range issue does not abort'),
  one('top refinement skipped on abort', container('', 'machinePool: ghost\nruntime: x')),
  one('top refinement runs on continue', container('', 'machinePool: ghost\nmaxConcurrentSpawns: 0')),
  one('many problems', `version: 2
globalMaxAgents: -1
scalers:
  - name: a
    type: container
    maxAgents: 0
    labelSets:
      - labels: []
        imagee: x
      - labels: [ok]
        imagePullPolicy: Sometimes
  - name: b
    type: Container
    maxAgents: 1
    labelSets: []
  - {}
`),
  one('proto key in strict object', container('__proto__: {image: x}'), 'an own __proto__ key is unrecognized in a strict object'),
  one('constructor key', container('constructor: x')),
  one('unicode keys', container('imäge: x')),
  one('duplicate key', container('image: other')),
  one('flow mapping positions', 'version: 1\nscalers: [{name: a, type: container, maxAgents: 1, labelSets: [{labels: [a]}, {labels: [b], image: c, imagee: d}]}]\n'),
  one('anchored scaler reused', 'version: 1\nscalers:\n  - &s {name: a, type: container, maxAgents: 1, labelSets: [{labels: [a]}]}\n  - *s\n'),
  one('tab indentation', 'version: 1\nscalers:\n\t- name: a\n'),
  one('unterminated flow', 'version: 1\nscalers: [\n'),
  one('anchor to scalar', 'version: 1\nx: &n 3\nscalers:\n  - name: a\n    type: container\n    maxAgents: *n\n    labelSets: [{labels: [a], image: b}]\n'),
  one('undefined alias', 'version: 1\nscalers: *nope\n'),
  one('tagged values', container('', 'maxConcurrentSpawns: !!int "7"').replace(`image: ${AGENT}`, 'image: !!str 123')),
  one('binary tag', container().replace(`image: ${AGENT}`, 'image: !!binary aGVsbG8=')),
  one('block scalars', container('env:\n  A: |\n    one\n    two\n  B: >-\n    folded\n    text')),
  one('quoted image', container().replace(`image: ${AGENT}`, `image: "${AGENT}"`)),
  one('long label', container('', '', '[' + 'x'.repeat(300) + ']')),

  // Values beyond JSON: the tags yaml knows beyond the core schema make
  // Dates, Buffers, Sets, Maps and Symbols, which zod and the loader treat
  // as JavaScript does.
  one('timestamp for a number', container().replace('maxAgents: 2', 'maxAgents: !!timestamp 2001-12-14')),
  one('set for labels', container('', '', '!!set {a, b}')),
  one('omap for label sets', scaler('name: a\ntype: container\nmaxAgents: 1\nlabelSets: !!omap [{x: 1}]')),
  one('timestamp as a label set', scaler('name: a\ntype: container\nmaxAgents: 1\nlabelSets: [!!timestamp 2001-12-14]'), 'a Date is an object to zod: every key is missing'),
  one('binary as a label set', scaler('name: a\ntype: container\nmaxAgents: 1\nlabelSets: [!!binary aGk=]'), 'a Buffer is an object whose indices are keys'),
  one('set as a platform', container('', 'platform: !!set {os}')),
  one('timestamp for env', container('env: !!timestamp 2001-12-14')),
  one('binary env value', container('env: {A: !!binary aGk=}')),
  one('symbol for a type', container().replace('type: container', 'type: !!merge <<')),
  one('lengths beyond json', scaler('name: e\ntype: event\nmaxAgents: 1\nprovisioningTargets: [{length: !!timestamp 2001-12-14}, {length: !!binary MA==}, {length: !!set {a}}, {length: !!omap []}, {length: [!!binary MQ==]}, {length: !!binary ""}]\nlabelSets: [{labels: [e]}]')),
  one('empty buffers where lengths count', scaler('name: e\ntype: event\nmaxAgents: 1\nprovisioningTargets: [!!binary "", !!binary aGk=]\nlabelSets: !!binary ""')),
  one('lengths of one-item lists', scaler('name: e\ntype: event\nmaxAgents: 1\nprovisioningTargets: [{length: [null]}, {length: [false]}, {length: [!!timestamp 2001-12-14]}, {length: [{a: 1}]}, {length: [[" 7 "]]}, {length: false}, {length: true}, {length: [!!set {}]}]\nlabelSets: [{labels: [e]}]')),
  one('object with toString in a longer length list', container('', '', '{length: [1, {toString: x}]}')),
  one('symbol length', container('', '', '{length: !!merge <<}'), 'a Symbol cannot become a number: a TypeError'),
  one('symbol in a length list', container('', '', '{length: [!!merge <<]}')),
  one('timestamp file', '!!timestamp 2001-12-14\n', 'a Date is an object: version and scalers are missing'),
  one('symbol file', '!!merge <<\n'),
  one('undefined by a merge of a set', '%YAML 1.1\n---\nx:\n  - &s !!set {? [binaryPath], ? [volumes], ? [imagePullPolicy]}\n  - &p !!set {? [host], ? [maxConcurrentSpawns]}\n' +
    container('<<: *s', '    <<: *p'),
    "a set member [k] merged sets k to undefined: an optional or defaulted field takes it as absent"),
  one('undefined env value by a merge of a set', '%YAML 1.1\n---\nx:\n  - &s !!set {? [A]}\n' + container('env: {<<: *s}'),
    "a record's value must be a string: undefined is not"),
  one('binary file', '!!binary aGk=\n'),
  one('unknown key by a merge', '%YAML 1.1\n---\nx:\n  - &m {nope: 1}\n' + container('<<: *m'), 'a merged key the schema does not know is placed where the merge source writes it, as Load places it'),
  {
    name: 'undefined main scalers by a merge of a set, with a drop-in',
    note: 'mainConfig.scalers ?? [] reads undefined as none: the drop-in\'s scalers are the list',
    files: { 'main.yaml': '%YAML 1.1\n---\nx:\n  - &s !!set {? [scalers]}\nversion: 1\n<<: *s\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to a timestamp main',
    note: 'the scalers become a property of the Date, which zod reads',
    files: { 'main.yaml': '!!timestamp 2001-12-14\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to a symbol main',
    files: { 'main.yaml': '!!merge <<\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to set scalers',
    note: 'spreading a Set appends its members',
    files: { 'main.yaml': 'version: 1\nscalers: !!set {a, b}\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to omap scalers',
    note: 'spreading a Map appends [key, value] pairs',
    files: { 'main.yaml': 'version: 1\nscalers: !!omap [{x: 1}]\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to binary scalers',
    note: 'spreading a Buffer appends its bytes',
    files: { 'main.yaml': 'version: 1\nscalers: !!binary aGk=\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to timestamp scalers',
    files: { 'main.yaml': 'version: 1\nscalers: !!timestamp 2001-12-14\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to symbol scalers',
    files: { 'main.yaml': 'version: 1\nscalers: !!merge <<\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in with set scalers',
    note: 'a drop-in whose scalers is not an array adds nothing',
    files: { 'main.yaml': container(), 'd/a.yaml': 'scalers: !!set {a}\n' },
    main: 'main.yaml',
    dir: 'd',
  },

  // Drop-ins.
  {
    name: 'drop-ins sorted as JavaScript sorts',
    note: '10.yaml before 9.yaml; .yml counts; .YAML, .txt and a folder without the suffix do not',
    files: {
      'main.yaml': container().replace('name: local', 'name: main'),
      'scalers.d/9.yaml': scaler(CONTAINER.replace('name: local', 'name: nine')),
      'scalers.d/10.yaml': scaler(CONTAINER.replace('name: local', 'name: ten')),
      'scalers.d/b.yml': 'scalers:\n  - ' + CONTAINER.replace('name: local', 'name: yml').replace(/\n/g, '\n    ') + '\n',
      'scalers.d/c.YAML': scaler(CONTAINER.replace('name: local', 'name: upper')),
      'scalers.d/d.txt': scaler(CONTAINER.replace('name: local', 'name: txt')),
      'scalers.d/sub/e.yaml': scaler(CONTAINER.replace('name: local', 'name: nested')),
    },
    main: 'main.yaml',
    dir: 'scalers.d',
  },
  {
    name: 'drop-ins beyond the basic plane',
    note: 'UTF-16 order puts U+10000 before U+E000, byte order the other way',
    files: {
      'main.yaml': 'version: 1\nscalers: []\n',
      'd/\uE000.yaml': scaler(CONTAINER.replace('name: local', 'name: private-use')),
      'd/\u{10000}.yaml': scaler(CONTAINER.replace('name: local', 'name: linear-b')),
      'd/\uFFFD.yaml': scaler(CONTAINER.replace('name: local', 'name: replacement')),
      'd/z.yaml': scaler(CONTAINER.replace('name: local', 'name: ascii')),
      'd/\u00e9.yaml': scaler(CONTAINER.replace('name: local', 'name: latin')),
    },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-ins that add nothing',
    note: 'empty, null, a scalers that is no array, other keys: all ignored',
    files: {
      'main.yaml': container(),
      'd/a.yaml': '',
      'd/b.yaml': '~\n',
      'd/c.yaml': 'version: 7\nscalers: {a: 1}\n',
      'd/d.yaml': 'globalMaxAgents: -5\n',
      'd/e.yaml': '- 1\n',
      'd/f.yaml': 'text\n',
      'd/g.yaml': 'scalers: []\nversion: 9\n',
    },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in problem names its file',
    files: {
      'main.yaml': container(),
      'd/a.yaml': '# first\nscalers:\n  - name: x\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [x]\n        imagee: y\n',
    },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to a main without scalers',
    files: { 'main.yaml': 'version: 1\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to null scalers',
    files: { 'main.yaml': 'version: 1\nscalers: null\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to string scalers',
    note: 'spreading a string appends its characters',
    files: { 'main.yaml': 'version: 1\nscalers: "a\u{1F600}"\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to number scalers',
    files: { 'main.yaml': 'version: 1\nscalers: 5\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to map scalers',
    files: { 'main.yaml': 'version: 1\nscalers: {a: 1}\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to a null main',
    files: { 'main.yaml': '', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to a string main',
    files: { 'main.yaml': 'text\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in to a list main',
    files: { 'main.yaml': '- a\n', 'd/a.yaml': scaler(CONTAINER) },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'null main without drop-ins',
    files: { 'main.yaml': '', 'd/a.yaml': 'version: 1\n' },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in folder named like a drop-in',
    files: { 'main.yaml': container() },
    dirs: ['d/x.yaml'],
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in folder missing',
    files: { 'main.yaml': container() },
    main: 'main.yaml',
    dir: 'nope',
  },
  {
    name: 'main file missing',
    files: { 'other.yaml': container() },
    main: 'main.yaml',
  },
  {
    name: 'drop-in yaml error',
    files: { 'main.yaml': container(), 'd/a.yaml': 'scalers: [\n' },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in scalers appended after the main ones',
    files: {
      'main.yaml': 'version: 1\nscalers:\n  - name: m\n    type: container\n    maxAgents: 1\n    labelSets: [{labels: [m]}]\n',
      'd/a.yaml': 'scalers:\n  - name: d\n    type: container\n    maxAgents: 1\n    labelSets: [{labels: [d]}]\n',
    },
    main: 'main.yaml',
    dir: 'd',
  },
  {
    name: 'drop-in machine pool reference',
    files: {
      'main.yaml': 'version: 1\nmachinePools: [{name: p, cap: {}}]\nscalers: []\n',
      'd/a.yaml': 'scalers:\n  - ' + CONTAINER.replace(/\n/g, '\n    ') + '\n    machinePool: p\n  - ' + CONTAINER.replace(/\n/g, '\n    ') + '\n    machinePool: q\n',
    },
    main: 'main.yaml',
    dir: 'd',
  },
];

// config.test.ts at 84ac3cd: its cases about the platform, which 0.16.0
// changes, as YAML files (the others are covered above).
cases.push(
  one('config.test.ts: a plain platform label without platform', scaler('name: mac-pool\ntype: bare-metal\nmaxAgents: 2\nlabelSets: [{labels: [macos, xcode], binaryPath: /opt/kici/kici-agent}]'), 'one issue, at the label set\'s labels'),
  one('config.test.ts: the same label set with platform', scaler('name: mac-pool\ntype: bare-metal\nmaxAgents: 2\nplatform: {os: macos, arch: arm64}\nlabelSets: [{labels: [macos, xcode], binaryPath: /opt/kici/kici-agent}]')),
  one('config.test.ts: a gate label only the platform supplies', scaler('name: win-pool\ntype: container\nmaxAgents: 5\nplatform: {os: windows, arch: x64}\nmandatoryLabels: [windows]\nlabelSets: [{labels: [ci], image: "win:latest"}]')),
  one('config.test.ts: a scaler with a platform', 'version: 1\nglobalMaxAgents: 10\nscalers:\n  - name: win-pool\n    type: bare-metal\n    maxAgents: 2\n    platform: {os: windows, arch: x64}\n    labelSets: [{labels: [windows, bare-metal], binaryPath: /kici-agent.exe}]\n'),
  one('config.test.ts: an unknown platform os', 'version: 1\nglobalMaxAgents: 10\nscalers:\n  - name: bad-pool\n    type: bare-metal\n    maxAgents: 2\n    platform: {os: freebsd, arch: x64}\n    labelSets: [{labels: [bare-metal], binaryPath: /usr/local/bin/kici-agent}]\n'),
  one('config.test.ts: an unknown platform arch', 'version: 1\nglobalMaxAgents: 10\nscalers:\n  - name: bad-pool\n    type: bare-metal\n    maxAgents: 2\n    platform: {os: linux, arch: ppc64}\n    labelSets: [{labels: [bare-metal], binaryPath: /usr/local/bin/kici-agent}]\n'),
  {
    name: 'config.test.ts: merges scalers.d/ directory files',
    files: {
      [MAIN]: '\nversion: 1\nglobalMaxAgents: 50\nscalers:\n  - name: container-linux\n    type: container\n    maxAgents: 20\n    labelSets:\n      - labels: [linux, docker]\n        image: "ghcr.io/my/agent:latest"\n',
      'scalers.d/01-gpu.yaml': '\nscalers:\n  - name: bare-metal-gpu\n    type: bare-metal\n    maxAgents: 3\n    labelSets:\n      - labels: [linux, gpu]\n        binaryPath: "/opt/kici/kici-agent"\n',
      'scalers.d/02-arm.yml': '\nscalers:\n  - name: container-arm\n    type: container\n    maxAgents: 5\n    platform:\n      os: linux\n      arch: arm64\n    labelSets:\n      - labels: [linux, arm64]\n        image: "ghcr.io/my/agent-arm:latest"\n',
      'scalers.d/README.md': '# Not a config',
    },
    main: MAIN,
    dir: 'scalers.d',
  },
);

// 'every field' by the rules of 0.16.0: its label set's resources nested,
// its bare-metal scaler's platform declared.
const every = cases.find((c) => c.name === 'every field');
cases.push({
  ...every,
  name: 'every field by 0.16',
  note: 'every field a config 0.16.0 starts on may set',
  files: {
    [MAIN]: every.files[MAIN]
      .replace('resources: {cpus: 2, memory: 4g}', 'resources: {limits: {cpus: 2, memory: 4g}, requests: {memory: 1g}}')
      .replace('  - name: metal\n    type: bare-metal\n    maxAgents: 1\n', '  - name: metal\n    type: bare-metal\n    maxAgents: 1\n    platform: {os: windows, arch: x64}\n'),
  },
});

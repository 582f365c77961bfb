#!/usr/bin/env python3
"""Checks of lanai-order against its channel files, recomputed here from the
routes (docs/irregular.md, "Tests"). Prints TAP lines numbered from --first.

    check.py --tool LANAI_ORDER --first N NET.ch...

For every network: orderings are permutations of the member set with the
source first; the contention count, per step and in total, equals a
brute-force recount from the channel file's routes; the chain concatenated
ordering has the properties of docs/irregular.md; the route-aware
ordering's total is never above the CCO's."""
import argparse
import subprocess
import sys
from itertools import combinations


def load(path):
    down, attach, route = {}, {}, {}
    with open(path) as f:
        head = f.readline().split()
        nsw, nn = int(head[1]), int(head[2])
        for line in f:
            w = line.split()
            if w[0] == 'down':
                down.setdefault(int(w[1]), set()).add(int(w[3]))
            elif w[0] == 'attach':
                attach[int(w[1])] = int(w[2])
            elif w[0] == 'route':
                route[(int(w[1]), int(w[2]))] = [int(x) for x in w[3:]]
    return nsw, nn, down, attach, route


def run(tool, net, *args):
    p = subprocess.run([tool, net, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{tool} {net} {' '.join(args)}: status {p.returncode}: {p.stderr}")
    out = {'edges': [], 'per': {}}
    for line in p.stdout.splitlines():
        w = line.split()
        if line.startswith('source'):
            out['source'] = int(w[1].rstrip(','))
            out['dests'] = int(w[3])
        elif line.startswith('packets'):
            out['packets'] = int(w[1].rstrip(','))
            out['dr'] = int(w[2])
        elif line.startswith('order:'):
            out['order'] = [int(x) for x in w[1:]]
        elif w[0] == 'edge':
            out['edges'].append((int(w[1]), int(w[2]), int(w[3])))
        elif w[0] == 'step':
            out['per'][int(w[1].rstrip(':'))] = int(w[3])
        elif line.startswith('total contention'):
            out['total'] = int(w[2])
    return out


def recount(route, edges, m, dr):
    """Pairs of edges that run at the same time for some packets of m, dr
    steps apart, whose routes share a directed channel, by the earlier
    edge's step."""
    per = {}
    for (s1, a, b), (s2, c, d) in combinations(edges, 2):
        if (any(abs(s1 - s2) == j * dr for j in range(m))
                and set(route[(a, b)]) & set(route[(c, d)])):
            per[min(s1, s2)] = per.get(min(s1, s2), 0) + 1
    return per


def runs(order, attach):
    """The cyclic runs of members on one switch: [(switch, [ids])]."""
    n = len(order)
    starts = [i for i in range(n) if attach[order[i - 1]] != attach[order[i]]]
    if not starts:
        return [(attach[order[0]], list(order))]
    start = starts[0]
    rot = order[start:] + order[:start]
    out = []
    for x in rot:
        if out and out[-1][0] == attach[x]:
            out[-1][1].append(x)
        else:
            out.append((attach[x], [x]))
    return out


def preorder_ok(seq, down):
    """seq (switches) is the depth-first preorder over down links from
    seq[0], each switch's down neighbours by index: every next switch is the
    smallest not-yet-listed down neighbour of the latest listed switch that
    still has one."""
    seen = [seq[0]]
    for s in seq[1:]:
        cand = None
        for u in reversed(seen):
            left = sorted(v for v in down.get(u, ()) if v not in seen)
            if left:
                cand = left[0]
                break
        if cand != s:
            return False
        seen.append(s)
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tool', required=True)
    ap.add_argument('--first', type=int, default=1)
    ap.add_argument('nets', nargs='+')
    o = ap.parse_args()
    n = o.first - 1
    bad = 0

    def tap(ok, what):
        nonlocal n, bad
        n += 1
        print(f"{'ok' if ok else 'not ok'} {n} - {what}")
        if not ok:
            bad += 1

    for ni, net in enumerate(o.nets):
        nsw, nn, down, attach, route = load(net)
        name = net.split('/')[-1]
        perm = recount_ok = True
        seen_total = 0
        cco_sw = cco_inswitch = cco_sub = True
        first_fail = ''
        full = run(o.tool, net, '--order', 'cco', '--seed', '1')
        fruns = runs(full['order'], attach)
        root_at = [i for i, (s, _) in enumerate(fruns) if s == 0]
        # the full-set CCO, cut where the root switch's run starts
        seq = fruns[root_at[0]:] + fruns[:root_at[0]] if root_at else fruns
        fulllist = [x for _, ids in seq for x in ids]
        cco_pre = (len(root_at) == 1 and len({s for s, _ in fruns}) == len(fruns)
                   and preorder_ok([s for s, _ in seq], down))
        for dests in (3, 15, 31, nn - 1):
            for seed in (1 + 7 * ni, 2 + 7 * ni, 3 + 7 * ni):
                for k, m in (('1', 1), ('1', 8), ('2', 1), ('2', 4), ('3', 2), ('opt', 1)):
                    for kind in ('id', 'cco', 'route'):
                        args = ['--order', kind, '--seed', str(seed), '--dests', str(dests),
                                '--k', k, '--packets', str(m)]
                        where = f"{kind} dests {dests} seed {seed} k {k} packets {m}"
                        try:
                            r = run(o.tool, net, *args)
                        except RuntimeError as e:
                            perm = False
                            first_fail = first_fail or f"{where}: {e}"
                            continue
                        order = r['order']
                        if (len(order) != dests + 1 or len(set(order)) != len(order)
                                or order[0] != r['source']
                                or any(not 0 <= x < nn for x in order)
                                or len(r['edges']) != dests
                                or {c for _, _, c in r['edges']} != set(order[1:])):
                            perm = False
                            first_fail = first_fail or where
                        kids = {}
                        for _, a, _ in r['edges']:
                            kids[a] = kids.get(a, 0) + 1
                        dr = max(kids.values())
                        per = recount(route, r['edges'], m, dr)
                        want = {s: per.get(s, 0) for s in r['per']}
                        seen_total += r['total']
                        if (want != r['per'] or sum(per.values()) != r['total']
                                or r['packets'] != m or r['dr'] != dr):
                            recount_ok = False
                            first_fail = first_fail or where
                        if kind != 'cco':
                            continue
                        rr = runs(order, attach)
                        if len({s for s, _ in rr}) != len(rr) or any(
                                ids != sorted(ids) for _, ids in rr):
                            cco_sw = False
                        # w < x < y < z consecutive on one switch: w->x and
                        # y->z share no channel
                        for _, ids in rr:
                            for i in range(len(ids) - 3):
                                w, x, y, z = ids[i:i + 4]
                                if set(route[(w, x)]) & set(route[(y, z)]):
                                    cco_inswitch = False
                        # a subset's CCO is the full CCO restricted to it, rotated
                        sub = [x for x in fulllist if x in set(order)]
                        i0 = order.index(sub[0])
                        if order[i0:] + order[:i0] != sub:
                            cco_sub = False
        tap(perm, f"{name}: every ordering is a permutation of the members, the source "
                  f"first, and the tree spans them{'' if perm else ' (first: ' + first_fail + ')'}")
        tap(recount_ok and seen_total > 0,
            f"{name}: contention per step and in total equals the recount from the "
            f"routes ({seen_total} pairs in all){'' if recount_ok else ' (first: ' + first_fail + ')'}")
        tap(cco_sw, f"{name}: CCO keeps each switch's members together, by node id")
        tap(cco_pre, f"{name}: CCO lists the switches in depth-first preorder over down "
                     f"links from the root (its chains)")
        tap(cco_sub, f"{name}: a subset's CCO is the full CCO restricted to it, rotated")
        tap(cco_inswitch, f"{name}: CCO: w<x<y<z on one switch, w->x and y->z share no "
                          f"channel")
        p = subprocess.run([o.tool, net, '--sets', '30', '--seed', str(100 + ni),
                            '--packets', '4', '--dests', '31'],
                           capture_output=True, text=True)
        above = [l for l in p.stdout.splitlines() if l.startswith('set ')
                 and int(l.split(' route ')[1]) > int(l.split(' cco ')[1].split()[0])]
        tap(p.returncode == 0 and not above,
            f"{name}: route-aware total never above CCO's on 30 sets"
            f"{'' if not above else ': ' + above[0]}")
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

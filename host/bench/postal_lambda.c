/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * R2's postal tree: lambda per message size from R1's own measurements,
 * by seed 000 section 5.5's rule: "the number of destinations a sender can
 * send to before its first receiver can start sending", the ratio of
 *   (a) "the total amount of time for a node to send a message until the
 *       receiver receives it" (the end-to-end latency): R1's NIC multicast
 *       to one destination, from the root's post until the destination's
 *       host has it (dests=1, oneway_us), and
 *   (b) the average time to send to one additional destination: R1's NIC
 *       multicast to 8 destinations less that to 1, over 7 (avg_us: until
 *       the last destination's acknowledgement is back at the root),
 * rounded up by ref/tree's nc_postal_ratio (the proved one nc_group_create
 * builds the tree with), in nanoseconds.
 *
 *   postal_lambda R1_CSV   ->  size,deliver_us,extra_dest_us,lambda per size
 *
 * R1_CSV is host/bench/r1r2's r1.csv (path,dests,size,count,avg_us,
 * half1_us,half2_us,oneway_us).
 * A size without both points, or whose increment is not positive, is an
 * error naming the size: no lambda is guessed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc_tree.h"

#define MAX_SIZES 64
#define FAR_DESTS 8u

struct point { unsigned long size; double one, far, oneway; };

int main(int argc, char **argv)
{
    struct point pt[MAX_SIZES];
    unsigned np = 0, line = 0;
    char buf[512];
    FILE *f;

    if (argc != 2) {
        fprintf(stderr, "usage: postal_lambda R1_CSV\n");
        return 2;
    }
    if (!(f = fopen(argv[1], "r"))) {
        perror(argv[1]);
        return 1;
    }
    while (fgets(buf, sizeof buf, f)) {
        char path[16];
        unsigned dests, count;
        unsigned long size;
        double avg, h1, h2, oneway;

        if (++line == 1)
            continue;                 /* the header */
        if (sscanf(buf, "%15[^,],%u,%lu,%u,%lf,%lf,%lf,%lf", path, &dests, &size, &count, &avg,
                   &h1, &h2, &oneway) != 8) {
            fprintf(stderr, "postal_lambda: %s line %u: not path,dests,size,count,avg_us,"
                    "half1_us,half2_us,oneway_us\n", argv[1], line);
            return 1;
        }
        if (strcmp(path, "nic") || (dests != 1 && dests != FAR_DESTS))
            continue;
        unsigned i = 0;
        while (i < np && pt[i].size != size)
            i++;
        if (i == np) {
            if (np == MAX_SIZES) {
                fprintf(stderr, "postal_lambda: %s: more than %d sizes\n", argv[1], MAX_SIZES);
                return 1;
            }
            pt[np++] = (struct point){ size, -1, -1, -1 };
        }
        if (dests == 1) {
            pt[i].one = avg;
            pt[i].oneway = oneway;
        } else
            pt[i].far = avg;
    }
    fclose(f);
    if (np == 0) {
        fprintf(stderr, "postal_lambda: %s: no nic rows with dests 1 and %u\n", argv[1], FAR_DESTS);
        return 1;
    }
    printf("size,deliver_us,extra_dest_us,lambda\n");
    for (unsigned i = 0; i < np; i++) {
        double extra = (pt[i].far - pt[i].one) / (FAR_DESTS - 1);

        if (pt[i].one <= 0 || pt[i].far <= 0 || extra * 1000 < 1 || pt[i].oneway * 1000 < 1) {
            fprintf(stderr, "postal_lambda: %s: size %lu: needs nic rows for dests 1 and %u with "
                    "the latter larger and a one-way time (got %.3f, %.3f, one-way %.3f)\n",
                    argv[1], pt[i].size, FAR_DESTS, pt[i].one, pt[i].far, pt[i].oneway);
            return 1;
        }
        uint32_t a_ns = (uint32_t)(pt[i].oneway * 1000 + 0.5), b_ns = (uint32_t)(extra * 1000 + 0.5);

        printf("%lu,%.3f,%.3f,%u\n", pt[i].size, pt[i].oneway, extra, nc_postal_ratio(a_ns, b_ns));
    }
    return 0;
}

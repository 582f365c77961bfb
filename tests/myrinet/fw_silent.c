/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test firmware that never answers the loader's handshake. */
int main(void)
{
    for (;;)
        ;
}

# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every design rule of one board, for the suite to run over every design:
``ratings(design)``, each part of the power path and the looms within its
catalogue rating (``parts.json``), and ``checks(design)``, the rules of what
the circuit does (``electrical``) with the BOM, the checkpoints and the
socket they read. Each gives one line per broken rule, naming the board, the
part, the figure and the rating:

    pico-grid: J3 JST-XH carries 3.2 A, rated 3.0 A x 80 %

The top of the generator: it reads the BOM and the checkpoints, which
read the rules' figures from ``electrical`` and ``parts``.
"""

from . import bom, checkpoints, circuit, electrical as e, enclosure, parts as catalogue, supply_sim


def checks(design, esd_fitted=None, cps=None):
    """Every broken rule of what the circuit does (``electrical``), one line each (empty: passes)."""
    if design.onboard:
        return []
    if esd_fitted is None:
        rows = [r for r in bom.rows(design) if "SRV05-4" in r[1]]
        esd_fitted = int(rows[0][2]) if rows else 0
    if cps is None:
        cps = checkpoints.checkpoints(design)
    return (
        e.u1_check(design)
        + e.esd_check(design, esd_fitted)
        + e.matrix_check(design)
        + e.checkpoint_check(design, cps)
        + e.smd_check(design, bom.rows(design)[1:-1])
        + enclosure.socket_check(design)
        + enclosure.pairs_check(design, cps)
        + e.pixel_check(design)
        + e.fault_check(design)
    )


def ratings(design):
    """Every part rated below what it carries, as one line each (empty: passes); the polyfuse held at 50 degC."""
    part, hold_at_cabinet, worst_amps = catalogue.part, catalogue.hold_at_cabinet, catalogue.worst_amps
    name = design.name
    out = []
    k = catalogue.derate()
    for ref, key, amps in e.power_path(design) + catalogue.signal_looms(design):
        p = part(key)
        rating = hold_at_cabinet(key) if p["kind"] == "fuse" else catalogue.trusted(key, p["amps"])
        if amps > rating * k + 1e-9:
            out.append(
                "%s: %s %s carries %.2f A, rated %.1f A x %d %%"
                % (name, ref, p["part"].split(",")[0], amps, rating, int(k * 100))
            )
        if p["kind"] == "crimp":
            awg = part("wire-18" if key.startswith("minifit") else "wire-22")["awg"]
            lo, hi = sorted(p["awg"])
            if not lo <= awg <= hi:
                out.append("%s: %s %s takes %d-%d AWG, the loom is %d AWG" % (name, ref, p["part"], lo, hi, awg))
    if catalogue.has_dc_input(design):
        fuse = circuit.fuse_key(design)
        if hold_at_cabinet(fuse) * k < worst_amps(design) - 1e-9:
            out.append(
                "%s: F1 %s holds %.2f A at %d degC (x %d %%), the worst case is %.2f A"
                % (
                    name,
                    part(fuse)["part"].split(",")[0],
                    hold_at_cabinet(fuse),
                    part("ptc-rerating-ruef")["cabinet_celsius"],
                    int(k * 100),
                    worst_amps(design),
                )
            )
        tvs = part(supply_sim.TVS)  # the fitted TVS (p6ke33ca was read here after it was superseded)
        if tvs["standoff_volts"] < 24 * 1.05:
            out.append("%s: TVS stand-off %.1f V below a 24 V adapter's 25.2 V" % (name, tvs["standoff_volts"]))
    lamp = part(catalogue.lamp_part(design))
    if lamp["kind"] == "led" and design.figures["led_ma"] > lamp["max_ma"] * k + 1e-9:
        out.append(
            "%s: %s runs at %.1f mA, rated %d mA x %d %%"
            % (name, lamp["part"].split(",")[0], design.figures["led_ma"], lamp["max_ma"], int(k * 100))
        )
    target = catalogue.catalogue()["lamp_target_mcd"]
    mcd = catalogue.lamp_mcd(design)
    if mcd < target:
        out.append(
            "%s: a lit %s gives %.1f mcd, the target is %d mcd" % (name, catalogue.lamp_part(design), mcd, target)
        )
    return out

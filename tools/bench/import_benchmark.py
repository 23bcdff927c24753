#!/usr/bin/env python3
"""Import benchmark: glance import against healthkit-to-sqlite on the same synthetic export.

Generates (once) a large synthetic export.xml in a scratch folder outside the repository, times
`glance import` on it (release build) and reports MB/s and peak RSS, then installs
healthkit-to-sqlite from PyPI into a virtualenv in the scratch folder, times it on the same file
in the same run and prints the ratio. Figures only: nothing here fails on speed.

    tools/bench/import_benchmark.py [--size-mb 1024] [--runs 1] [--zip] [--no-reference]
                                    [--scratch DIR] [--keep] [--glance PATH]

Targets (issue 6): at least 150 MB/s and peak RSS under 50 MB for a 1 GB file.
"""
import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def timed(command, **kwargs):
    """Runs command under GNU time; returns (wall s, user+sys s, peak RSS in MB)."""
    fmt = "%e %U %S %M"
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        result = subprocess.run(["/usr/bin/time", "-o", report.name, "-f", fmt] + command,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, **kwargs)
        if result.returncode != 0:
            sys.exit(f"import-benchmark: {' '.join(command)} failed ({result.returncode}):\n{result.stderr}")
        wall, user, system, rss_kb = report.read().split()[-4:]
    return float(wall), float(user) + float(system), int(rss_kb) / 1024


def days_in(db, table):
    with sqlite3.connect(db) as c:
        return c.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size-mb", type=float, default=1024)
    parser.add_argument("--runs", type=int, default=1, help="glance runs (the best and the median are shown)")
    parser.add_argument("--zip", action="store_true", help="also time export.zip (deflated)")
    parser.add_argument("--no-reference", action="store_true", help="skip healthkit-to-sqlite")
    parser.add_argument("--scratch", default=os.path.join(tempfile.gettempdir(), "glance-import-bench"))
    parser.add_argument("--keep", action="store_true", help="keep the generated files for another run")
    parser.add_argument("--glance", default=os.path.join(ROOT, ".build", "release", "glance"))
    args = parser.parse_args()

    if not os.access(args.glance, os.X_OK):
        sys.exit(f"import-benchmark: no {args.glance}: build it with swift build -c release (make bench-import does)")
    os.makedirs(args.scratch, exist_ok=True)
    # The scratch folder (a 1 GB export, a virtualenv) goes however the run ends, unless --keep.
    try:
        measure(args)
    finally:
        if not args.keep:
            shutil.rmtree(args.scratch, ignore_errors=True)
            print(f"removed {args.scratch} (use --keep to reuse the generated file)")


def measure(args):
    xml = os.path.join(args.scratch, "export.xml")
    stamp = os.path.join(args.scratch, "export.params")
    params = f"size={args.size_mb} zip={args.zip}\n"
    zip_path = os.path.join(args.scratch, "export.zip")
    if not (os.path.exists(xml) and os.path.exists(stamp) and open(stamp).read() == params):
        print(f"generating a {args.size_mb:g} MB synthetic export in {args.scratch} …", flush=True)
        command = [sys.executable, os.path.join(HERE, "generate_health_export.py"), xml, "--size-mb", str(args.size_mb)]
        if args.zip:
            command += ["--zip", zip_path]
        subprocess.run(command, check=True)
        with open(stamp, "w") as f:
            f.write(params)
    size_mb = os.path.getsize(xml) / 1e6
    load = os.getloadavg()
    print(f"file: {xml}, {size_mb:.1f} MB; {os.cpu_count()} CPUs, load average {load[0]:.2f} at start")

    def glance_run(path, label):
        results = []
        for _ in range(args.runs):
            db = os.path.join(args.scratch, "glance.db")
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(db + suffix):
                    os.remove(db + suffix)
            results.append(timed([args.glance, "import", path, "--db", db, "--quiet", "--no-task"]))
            days = days_in(db, "day_summaries")
        results.sort()
        wall, cpu, rss = results[0]
        median = results[len(results) // 2][0]
        rate = size_mb / wall
        verdict = "meets" if rate >= 150 and max(r[2] for r in results) < 50 else "MISSES"
        print(f"{label:<22} {wall:8.2f} s {rate:8.1f} MB/s  (median of {args.runs}: {size_mb / median:.1f} MB/s; "
              f"CPU {cpu:.2f} s = {size_mb / cpu:.1f} MB/s per CPU second)  peak RSS {max(r[2] for r in results):.1f} MB"
              f"  {days} days  [{verdict} the target: ≥150 MB/s, <50 MB]", flush=True)
        return wall, cpu

    glance_wall, glance_cpu = glance_run(xml, "glance import (xml)")
    if args.zip:
        glance_run(zip_path, "glance import (zip)")

    if not args.no_reference:
        venv = os.path.join(args.scratch, "venv")
        tool = os.path.join(venv, "bin", "healthkit-to-sqlite")
        if not os.path.exists(tool):
            print("installing healthkit-to-sqlite from PyPI …", flush=True)
            subprocess.run([sys.executable, "-m", "venv", venv], check=True)
            # Short timeouts: without network this says so instead of hanging for many minutes.
            installed = subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "--timeout", "20",
                                        "--retries", "1", "healthkit-to-sqlite"])
            if installed.returncode != 0:
                print("healthkit-to-sqlite could not be installed from PyPI (no network?): no reference figure; "
                      "--no-reference skips it", flush=True)
                return
        version = subprocess.run([os.path.join(venv, "bin", "pip"), "show", "healthkit-to-sqlite"],
                                 capture_output=True, text=True).stdout.split("\n")[1].split(": ")[-1]
        ref_db = os.path.join(args.scratch, "healthkit.db")
        if os.path.exists(ref_db):
            os.remove(ref_db)
        wall, cpu, rss = timed([tool, xml, ref_db, "--xml", "--silent"])
        days = days_in(ref_db, "activity_summary")
        print(f"{'healthkit-to-sqlite ' + version:<22} {wall:8.2f} s {size_mb / wall:8.1f} MB/s  "
              f"(CPU {cpu:.2f} s)  peak RSS {rss:.1f} MB  {days} days (it also stores every Record)")
        print(f"ratio: glance import is {wall / glance_wall:.1f}x as fast as healthkit-to-sqlite on the same file "
              f"in wall time ({cpu / glance_cpu:.1f}x in CPU time), same run")


if __name__ == "__main__":
    main()

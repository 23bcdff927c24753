#!/usr/bin/env python3
"""Writes a large synthetic Apple Health export.xml (and optionally export.zip) for benchmarks.

The file looks like a real export of version 14: the inline DTD, ExportDate and Me, then
Records of many types (heart rate from a watch with the escaped HKDevice attribute, steps and
distance from a phone, energy, sleep categories, HRV with its beat list, MetadataEntry
children), Correlations, Workouts with events, statistics and routes, and one ActivitySummary a
day for `--years` years, at the end as the Health app writes them. Deterministic for a seed.

    generate_health_export.py OUT.xml [--size-mb 1024] [--years 10] [--seed 1] [--zip OUT.zip]
"""
import argparse
import datetime
import os
import random
import sys
import zipfile

DTD = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 14 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType           CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
<!ATTLIST Correlation
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
<!ATTLIST Workout
  workoutActivityType   CDATA #REQUIRED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
  totalDistance         CDATA #IMPLIED
  totalDistanceUnit     CDATA #IMPLIED
  totalEnergyBurned     CDATA #IMPLIED
  totalEnergyBurnedUnit CDATA #IMPLIED
  sourceName            CDATA #REQUIRED
  sourceVersion         CDATA #IMPLIED
  device                CDATA #IMPLIED
  creationDate          CDATA #IMPLIED
  startDate             CDATA #REQUIRED
  endDate               CDATA #REQUIRED
>
<!ELEMENT WorkoutEvent ((MetadataEntry)*)>
<!ATTLIST WorkoutEvent
  type                 CDATA #REQUIRED
  date                 CDATA #REQUIRED
  duration             CDATA #IMPLIED
  durationUnit         CDATA #IMPLIED
>
<!ELEMENT WorkoutStatistics EMPTY>
<!ATTLIST WorkoutStatistics
  type                 CDATA #REQUIRED
  startDate            CDATA #REQUIRED
  endDate              CDATA #REQUIRED
  average              CDATA #IMPLIED
  minimum              CDATA #IMPLIED
  maximum              CDATA #IMPLIED
  sum                  CDATA #IMPLIED
  unit                 CDATA #IMPLIED
>
<!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>
<!ATTLIST WorkoutRoute
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT FileReference EMPTY>
<!ATTLIST FileReference
  path CDATA #REQUIRED
>
<!ELEMENT ActivitySummary EMPTY>
<!ATTLIST ActivitySummary
  dateComponents           CDATA #IMPLIED
  activeEnergyBurned       CDATA #IMPLIED
  activeEnergyBurnedGoal   CDATA #IMPLIED
  activeEnergyBurnedUnit   CDATA #IMPLIED
  appleMoveTime            CDATA #IMPLIED
  appleMoveTimeGoal        CDATA #IMPLIED
  appleExerciseTime        CDATA #IMPLIED
  appleExerciseTimeGoal    CDATA #IMPLIED
  appleStandHours          CDATA #IMPLIED
  appleStandHoursGoal      CDATA #IMPLIED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
<!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
<!ELEMENT InstantaneousBeatsPerMinute EMPTY>
<!ATTLIST InstantaneousBeatsPerMinute
  bpm  CDATA #REQUIRED
  time CDATA #REQUIRED
>
]>
"""

WATCH = ("Alex\u2019s Apple Watch", "10.2",
         "&lt;&lt;HKDevice: 0x2836c1f90&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, "
         "hardware:Watch6,2, software:10.2&gt;")
PHONE = ("Alex\u2019s iPhone", "17.2",
         "&lt;&lt;HKDevice: 0x2836c2a80&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, "
         "hardware:iPhone14,5, software:17.2&gt;")

# (type, unit, source, value range, share of records, metadata)
QUANTITIES = [
    ("HKQuantityTypeIdentifierHeartRate", "count/min", WATCH, (48, 165), 30,
     '<MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="{m}"/>'),
    ("HKQuantityTypeIdentifierActiveEnergyBurned", "Cal", WATCH, (0.05, 9.5), 22, None),
    ("HKQuantityTypeIdentifierBasalEnergyBurned", "Cal", WATCH, (0.2, 2.1), 14, None),
    ("HKQuantityTypeIdentifierStepCount", "count", PHONE, (3, 1400), 9, None),
    ("HKQuantityTypeIdentifierDistanceWalkingRunning", "km", PHONE, (0.002, 1.1), 8, None),
    ("HKQuantityTypeIdentifierAppleExerciseTime", "min", WATCH, (1, 1), 4, None),
    ("HKQuantityTypeIdentifierAppleStandTime", "min", WATCH, (1, 5), 4, None),
    ("HKQuantityTypeIdentifierFlightsClimbed", "count", PHONE, (1, 6), 2, None),
    ("HKQuantityTypeIdentifierEnvironmentalAudioExposure", "dBASPL", WATCH, (35, 88), 3, None),
    ("HKQuantityTypeIdentifierWalkingSpeed", "km/hr", PHONE, (3.1, 6.2), 1, None),
    ("HKQuantityTypeIdentifierRespiratoryRate", "count/min", WATCH, (11, 19), 1, None),
    ("HKQuantityTypeIdentifierOxygenSaturation", "%", WATCH, (0.93, 1.0), 1, None),
]


def stamp(t, zone="+0100"):
    return t.strftime("%Y-%m-%d %H:%M:%S ") + zone


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output")
    parser.add_argument("--size-mb", type=float, default=1024, help="approximate size of export.xml (MB, 10^6 bytes)")
    parser.add_argument("--years", type=int, default=10, help="years of ActivitySummary rows (one a day)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--zip", help="also write this export.zip holding apple_health_export/export.xml")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    target = int(args.size_mb * 1_000_000)
    end_day = datetime.date(2025, 5, 31)
    first_day = end_day - datetime.timedelta(days=int(args.years * 365.25) - 1)
    days = (end_day - first_day).days + 1
    weights = [q[4] for q in QUANTITIES]
    # Reserve room for the summaries at the end (about 290 bytes a day).
    body_target = target - days * 290 - 4000

    with open(args.output, "w", encoding="utf-8", newline="\n") as out:
        out.write(DTD)
        out.write('<HealthData locale="en_GB">\n')
        out.write(' <ExportDate value="2025-06-01 09:12:44 +0100"/>\n')
        out.write(' <Me HKCharacteristicTypeIdentifierDateOfBirth="1988-04-12" '
                  'HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" '
                  'HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" '
                  'HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>\n')
        written = out.tell()
        start = datetime.datetime.combine(first_day, datetime.time(6, 0))
        span = (end_day - first_day).total_seconds() + 86400
        n = 0
        batch = []
        while written < body_target:
            n += 1
            # Time runs forwards through the years as the file grows.
            t = start + datetime.timedelta(seconds=span * written / max(body_target, 1) + rng.random() * 60)
            kind = rng.random()
            if kind < 0.004:
                text = workout(rng, t)
            elif kind < 0.010:
                text = sleep(rng, t)
            elif kind < 0.013:
                text = hrv(rng, t)
            elif kind < 0.015:
                text = blood_pressure(rng, t)
            else:
                q = rng.choices(QUANTITIES, weights)[0]
                text = quantity(rng, q, t)
            batch.append(text)
            if len(batch) >= 2000:
                chunk = "".join(batch)
                out.write(chunk)
                written += len(chunk.encode("utf-8"))
                batch.clear()
        out.write("".join(batch))
        for i in range(days):
            out.write(summary(rng, first_day + datetime.timedelta(days=i)))
        out.write("</HealthData>\n")
    size = os.path.getsize(args.output)
    print(f"wrote {args.output}: {size / 1e6:.1f} MB, {n} records and workouts, {days} ActivitySummary days "
          f"({first_day} to {end_day})", file=sys.stderr)
    if args.zip:
        with zipfile.ZipFile(args.zip, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
            z.write(args.output, "apple_health_export/export.xml")
        print(f"wrote {args.zip}: {os.path.getsize(args.zip) / 1e6:.1f} MB", file=sys.stderr)


def quantity(rng, q, t):
    kind, unit, (source, version, device), (lo, hi), _, meta = q
    v = rng.uniform(lo, hi)
    value = str(round(v)) if unit in ("count", "count/min", "min") else f"{v:.4g}"
    end = t + datetime.timedelta(seconds=rng.choice((0, 60, 300, 600)))
    head = (f' <Record type="{kind}" sourceName="{source}" sourceVersion="{version}" device="{device}" '
            f'unit="{unit}" creationDate="{stamp(end + datetime.timedelta(seconds=40))}" '
            f'startDate="{stamp(t)}" endDate="{stamp(end)}" value="{value}"')
    if meta and rng.random() < 0.7:
        return head + ">\n  " + meta.format(m=rng.choice((0, 1, 2))) + "\n </Record>\n"
    return head + "/>\n"


def sleep(rng, t):
    stage = rng.choice(("HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
                        "HKCategoryValueSleepAnalysisAsleepREM", "HKCategoryValueSleepAnalysisAwake"))
    end = t + datetime.timedelta(minutes=rng.randint(3, 55))
    return (f' <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="{WATCH[0]}" sourceVersion="{WATCH[1]}" '
            f'device="{WATCH[2]}" creationDate="{stamp(end)}" startDate="{stamp(t)}" endDate="{stamp(end)}" '
            f'value="{stage}">\n  <MetadataEntry key="HKTimeZone" value="Europe/London"/>\n </Record>\n')


def hrv(rng, t):
    beats = "".join(f'   <InstantaneousBeatsPerMinute bpm="{rng.randint(55, 90)}" time="{t.strftime("%I:%M")}:{i:02d}.{rng.randint(10, 99)} AM"/>\n'
                    for i in range(rng.randint(40, 70)))
    end = t + datetime.timedelta(minutes=1)
    return (f' <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="{WATCH[0]}" '
            f'sourceVersion="{WATCH[1]}" device="{WATCH[2]}" unit="ms" creationDate="{stamp(end)}" '
            f'startDate="{stamp(t)}" endDate="{stamp(end)}" value="{rng.uniform(20, 90):.3f}">\n'
            f'  <HeartRateVariabilityMetadataList>\n{beats}  </HeartRateVariabilityMetadataList>\n </Record>\n')


def blood_pressure(rng, t):
    s, d = rng.randint(105, 135), rng.randint(65, 88)
    common = f'sourceName="Withings" sourceVersion="6.2" creationDate="{stamp(t)}" startDate="{stamp(t)}" endDate="{stamp(t)}"'
    return (f' <Correlation type="HKCorrelationTypeIdentifierBloodPressure" {common}>\n'
            f'  <MetadataEntry key="Modified Date" value="{stamp(t, "+0000")}"/>\n'
            f'  <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" {common} unit="mmHg" value="{s}"/>\n'
            f'  <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" {common} unit="mmHg" value="{d}"/>\n'
            f' </Correlation>\n')


def workout(rng, t):
    minutes = rng.uniform(18, 75)
    end = t + datetime.timedelta(minutes=minutes)
    kind = rng.choice(("Running", "Walking", "Cycling", "FunctionalStrengthTraining", "Yoga"))
    km = minutes * rng.uniform(0.08, 0.2)
    energy = minutes * rng.uniform(5, 11)
    events = "".join(f'  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="{stamp(t + datetime.timedelta(minutes=i * 5))}" '
                     f'duration="5" durationUnit="min"/>\n' for i in range(int(minutes // 5)))
    return (f' <Workout workoutActivityType="HKWorkoutActivityType{kind}" duration="{minutes:.4f}" durationUnit="min" '
            f'totalDistance="{km:.3f}" totalDistanceUnit="km" totalEnergyBurned="{energy:.2f}" totalEnergyBurnedUnit="Cal" '
            f'sourceName="{WATCH[0]}" sourceVersion="{WATCH[1]}" device="{WATCH[2]}" creationDate="{stamp(end)}" '
            f'startDate="{stamp(t)}" endDate="{stamp(end)}">\n'
            f'  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n'
            f'  <MetadataEntry key="HKWeatherTemperature" value="{rng.randint(40, 80)} degF"/>\n{events}'
            f'  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="{stamp(t)}" endDate="{stamp(end)}" sum="{energy:.2f}" unit="Cal"/>\n'
            f'  <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="{stamp(t)}" endDate="{stamp(end)}" '
            f'average="{rng.randint(110, 160)}" minimum="{rng.randint(80, 110)}" maximum="{rng.randint(160, 185)}" unit="count/min"/>\n'
            f'  <WorkoutRoute sourceName="{WATCH[0]}" sourceVersion="{WATCH[1]}" creationDate="{stamp(end)}" startDate="{stamp(t)}" endDate="{stamp(end)}">\n'
            f'   <FileReference path="/workout-routes/route_{t.strftime("%Y-%m-%d_%I.%M%p")}.gpx"/>\n'
            f'  </WorkoutRoute>\n </Workout>\n')


def summary(rng, day):
    # A watch wearer: energy mode with goals that change now and then; some days without the watch.
    energy_goal = (400, 500, 550, 600)[(day.toordinal() // 120) % 4]
    if rng.random() < 0.05:  # the watch stayed on the charger: iPhone-only figures
        return (f' <ActivitySummary dateComponents="{day}" activeEnergyBurned="{rng.uniform(80, 300):.3f}" '
                f'activeEnergyBurnedGoal="{energy_goal}" activeEnergyBurnedUnit="Cal" appleMoveTime="0" appleMoveTimeGoal="0" '
                f'appleExerciseTime="0" appleExerciseTimeGoal="0" appleStandHours="0" appleStandHoursGoal="0"/>\n')
    return (f' <ActivitySummary dateComponents="{day}" activeEnergyBurned="{rng.uniform(150, 1100):.3f}" '
            f'activeEnergyBurnedGoal="{energy_goal}" activeEnergyBurnedUnit="Cal" appleMoveTime="0" appleMoveTimeGoal="0" '
            f'appleExerciseTime="{rng.randint(0, 95)}" appleExerciseTimeGoal="30" appleStandHours="{rng.randint(4, 16)}" '
            f'appleStandHoursGoal="12"/>\n')


if __name__ == "__main__":
    main()

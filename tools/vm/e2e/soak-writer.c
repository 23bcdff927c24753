/* soak-writer.c -- the second process of `make soak` (tools/vm/soak.sh): writes into the store
 * every 100 ms, as scripts and imports do, while glance run shows it.
 *
 *   soak-writer DB TODAY SEED
 *
 * Every 100 ms one commit: the metric "soak" (0..100, a gauge); every 10th also TODAY's figures
 * (random, in their ranges); the task "soak" starts every 30 s, advances 10 % every second and
 * ends done, or cancelled when someone pressed Cancel. SIGTERM ends the running task and exits 0
 * after printing "soak-writer: commits=N busy=M". */
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping = 0;
static void stop(int signal) { (void)signal; stopping = 1; }

static int run(sqlite3 *db, const char *sql, long *busy) {
	char *error = NULL;
	int rc = sqlite3_exec(db, sql, NULL, NULL, &error);
	if (rc == SQLITE_BUSY) (*busy)++;
	else if (rc != SQLITE_OK) fprintf(stderr, "soak-writer: %s: %s\n", sql, error ? error : "?");
	sqlite3_free(error);
	return rc;
}

int main(int argc, char **argv) {
	if (argc < 4) {
		fprintf(stderr, "usage: soak-writer DB TODAY SEED\n");
		return 64;
	}
	sqlite3 *db;
	if (sqlite3_open(argv[1], &db) != SQLITE_OK) {
		fprintf(stderr, "soak-writer: cannot open %s\n", argv[1]);
		return 66;
	}
	sqlite3_busy_timeout(db, 5000);
	srand((unsigned)atoi(argv[3]));
	signal(SIGTERM, stop);
	signal(SIGINT, stop);
	const char *today = argv[2];
	long commits = 0, busy = 0, tick = 0;
	int taskDone = -1; /* -1: no task running */
	char sql[1024];
	while (!stopping) {
		struct timespec wait = {0, 100 * 1000 * 1000};
		nanosleep(&wait, NULL);
		run(db, "BEGIN IMMEDIATE", &busy);
		snprintf(sql, sizeof sql,
			"INSERT OR REPLACE INTO metrics (name, value, min, max, unit, updated) "
			"VALUES ('soak', %d, 0, 100, '%%', strftime('%%s', 'now'))", rand() % 101);
		run(db, sql, &busy);
		if (tick % 10 == 0) {
			snprintf(sql, sizeof sql,
				"INSERT INTO day_summaries (date, active_energy_burned, active_energy_burned_unit, "
				"active_energy_burned_goal, active_energy_burned_goal_unit, exercise_time, exercise_time_goal, "
				"stand_hours, stand_hours_goal, move_mode) VALUES ('%s', %d, 'kcal', 500, 'kcal', %d, 30, %d, 12, "
				"'activeEnergy') ON CONFLICT (date) DO UPDATE SET active_energy_burned = excluded.active_energy_burned, "
				"exercise_time = excluded.exercise_time, stand_hours = excluded.stand_hours",
				today, rand() % 1200, rand() % 90, rand() % 17);
			run(db, sql, &busy);
		}
		if (tick % 300 == 0 && taskDone < 0) {
			snprintf(sql, sizeof sql,
				"INSERT OR REPLACE INTO tasks (name, done, total, description, cancellable, cancel_requested, "
				"state, pid, started, updated) VALUES ('soak', 0, 100, 'Soaking', 1, 0, 'running', %d, "
				"strftime('%%s', 'now'), strftime('%%s', 'now'))", (int)getpid());
			if (run(db, sql, &busy) == SQLITE_OK) taskDone = 0;
		} else if (taskDone >= 0 && tick % 10 == 0) {
			taskDone += 10;
			snprintf(sql, sizeof sql,
				"UPDATE tasks SET state = CASE WHEN cancel_requested = 1 THEN 'cancelled' WHEN %d >= 100 THEN 'done' "
				"ELSE 'running' END, done = %d, updated = strftime('%%s', 'now') WHERE name = 'soak'",
				taskDone, taskDone);
			run(db, sql, &busy);
			sqlite3_stmt *statement;
			if (sqlite3_prepare_v2(db, "SELECT state FROM tasks WHERE name = 'soak'", -1, &statement, NULL) == SQLITE_OK) {
				if (sqlite3_step(statement) == SQLITE_ROW) {
					const unsigned char *state = sqlite3_column_text(statement, 0);
					if (state && state[0] != 'r') taskDone = -1;
				}
				sqlite3_finalize(statement);
			}
		}
		if (run(db, "COMMIT", &busy) == SQLITE_OK) commits++;
		else run(db, "ROLLBACK", &busy);
		tick++;
	}
	run(db, "UPDATE tasks SET state = 'done', done = total WHERE name = 'soak' AND state = 'running'", &busy);
	sqlite3_close(db);
	printf("soak-writer: commits=%ld busy=%ld\n", commits, busy);
	return 0;
}

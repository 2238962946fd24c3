//! A private single-node Slurm cluster for the tests that run the recipe
//! `examples/cluster/slurm.sbatch` on the real engine (`cluster_slurm`).
//!
//! [`Cluster::start`] writes a `slurm.conf` of its own into a temporary
//! folder (state, spool, logs and pid files there too; free ports of its
//! own; `auth/none`, `cred/none`, `proctrack/linuxproc`, `task/none`,
//! `select/cons_tres` with `CR_CPU`, no accounting; one node, this machine,
//! with its CPUs, in one partition), starts `slurmctld -D` and `slurmd -D`
//! as children (in a process group of their own) as the current user, and
//! waits until the node is idle. Every client command is run with
//! `SLURM_CONF` pointing at that file, so the machine's own Slurm, if any,
//! is never touched. Dropping the [`Cluster`] (also when a test panics)
//! cancels its jobs, runs `scontrol shutdown`, and kills the daemons' process
//! groups if they have not exited within seconds.
//!
//! When Slurm cannot start (not installed, a daemon that dies or never
//! makes its node idle), [`Cluster::start`] returns the reason; the test
//! reports it with `common::skip`, which fails under CI (`CI` set:
//! `.ci/run` installs `slurm-wlm`).

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How Slurm is installed where it is missing.
pub const INSTALL: &str =
    "install it with `apt-get install slurm-wlm` (Debian, Ubuntu; .ci/run does), or your system's Slurm packages";

/// The states of a job that has ended (`squeue --states=all`).
const ENDED: [&str; 9] = [
    "COMPLETED",
    "FAILED",
    "CANCELLED",
    "TIMEOUT",
    "NODE_FAIL",
    "OUT_OF_MEMORY",
    "PREEMPTED",
    "BOOT_FAIL",
    "DEADLINE",
];

/// Whether a job in `state` has ended.
pub fn ended(state: &str) -> bool {
    ENDED.contains(&state)
}

/// A running private Slurm cluster of one node; shut down when dropped.
pub struct Cluster {
    dir: tempfile::TempDir,
    conf: PathBuf,
    daemons: Vec<(&'static str, Child)>,
}

/// `program` on `PATH`, or in the `sbin` folders that a user's `PATH` often
/// lacks.
fn find_program(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/local/sbin", "/sbin"].map(PathBuf::from))
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// A TCP port that was free a moment ago.
fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("0.0.0.0:0")?.local_addr()?.port())
}

/// This machine's short host name (the node's name, as `slurmd` sees it).
fn host_name() -> String {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let name = name.trim();
    name.split('.').next().unwrap_or(name).to_string()
}

/// The current user's name.
fn user_name() -> Result<String, String> {
    let out = Command::new("id")
        .arg("-un")
        .output()
        .map_err(|e| format!("`id -un`: {e}"))?;
    let name = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || name.is_empty() {
        return Err("`id -un` does not name the current user (Slurm needs a user name)".into());
    }
    Ok(name)
}

/// The last `n` lines of the file at `path` (or why it cannot be read).
pub fn tail(path: &Path, n: usize) -> String {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let lines: Vec<&str> = text.lines().collect();
            lines[lines.len().saturating_sub(n)..].join("\n")
        }
        Err(e) => format!("({}: {e})", path.display()),
    }
}

impl Cluster {
    /// Starts a cluster, or says why Slurm cannot start here.
    pub fn start() -> Result<Cluster, String> {
        let mut programs = BTreeMap::new();
        for program in [
            "slurmctld",
            "slurmd",
            "sbatch",
            "squeue",
            "scontrol",
            "scancel",
        ] {
            match find_program(program) {
                Some(path) => programs.insert(program, path),
                None => return Err(format!("Slurm's `{program}` is not installed: {INSTALL}")),
            };
        }
        let user = user_name()?;
        let host = host_name();
        if host.is_empty() {
            return Err("this machine has no host name (/proc/sys/kernel/hostname)".into());
        }
        let dir = tempfile::Builder::new()
            .prefix("dlxbench-slurm-")
            .tempdir()
            .map_err(|e| format!("a temporary folder: {e}"))?;
        let root = dir.path();
        for sub in ["state", "spool", "log"] {
            std::fs::create_dir(root.join(sub)).map_err(|e| format!("{sub}: {e}"))?;
        }
        let (ctld_port, slurmd_port) = match (free_port(), free_port()) {
            (Ok(a), Ok(b)) if a != b => (a, b),
            _ => return Err("no two free TCP ports for slurmctld and slurmd".into()),
        };
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let r = root.display();
        let conf = root.join("slurm.conf");
        let text = format!(
            "# A private single-node cluster of dlxbench's tests (tests/it/common/slurm.rs).\n\
             ClusterName=dlxbench-test\n\
             SlurmctldHost={host}(127.0.0.1)\n\
             SlurmctldPort={ctld_port}\n\
             SlurmdPort={slurmd_port}\n\
             SlurmUser={user}\n\
             SlurmdUser={user}\n\
             AuthType=auth/none\n\
             CredType=cred/none\n\
             ProctrackType=proctrack/linuxproc\n\
             TaskPlugin=task/none\n\
             SelectType=select/cons_tres\n\
             SelectTypeParameters=CR_CPU\n\
             AccountingStorageType=accounting_storage/none\n\
             JobAcctGatherType=jobacct_gather/none\n\
             JobCompType=jobcomp/none\n\
             MpiDefault=none\n\
             SwitchType=switch/none\n\
             ReturnToService=2\n\
             MinJobAge=600\n\
             KillWait=5\n\
             StateSaveLocation={r}/state\n\
             SlurmdSpoolDir={r}/spool\n\
             SlurmctldPidFile={r}/slurmctld.pid\n\
             SlurmdPidFile={r}/slurmd.pid\n\
             SlurmctldLogFile={r}/log/slurmctld.log\n\
             SlurmdLogFile={r}/log/slurmd.log\n\
             NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN\n\
             PartitionName=test Nodes={host} Default=YES MaxTime=INFINITE State=UP\n"
        );
        std::fs::write(&conf, text).map_err(|e| format!("{}: {e}", conf.display()))?;
        let mut cluster = Cluster {
            dir,
            conf,
            daemons: Vec::new(),
        };
        for daemon in ["slurmctld", "slurmd"] {
            let out = std::fs::File::create(cluster.dir.path().join(format!("log/{daemon}.out")))
                .map_err(|e| e.to_string())?;
            let mut cmd = Command::new(&programs[daemon]);
            cmd.arg("-D")
                .env("SLURM_CONF", &cluster.conf)
                .stdin(Stdio::null())
                .stdout(out.try_clone().map_err(|e| e.to_string())?)
                .stderr(out)
                .process_group(0);
            if daemon == "slurmctld" {
                cmd.arg("-c"); // a clean start: no state to recover
            }
            let child = cmd
                .spawn()
                .map_err(|e| format!("starting {}: {e}", programs[daemon].display()))?;
            cluster.daemons.push((daemon, child));
        }
        // Ready when the node is idle (both daemons up and registered).
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            for (name, child) in &mut cluster.daemons {
                if let Ok(Some(status)) = child.try_wait() {
                    let log = cluster.dir.path().join("log");
                    return Err(format!(
                        "{name} exited at start ({status}); its log:\n{}\n{}",
                        tail(&log.join(format!("{name}.log")), 15),
                        tail(&log.join(format!("{name}.out")), 15)
                    ));
                }
            }
            let state = cluster.run("sinfo", &["-h", "-o", "%T"]);
            if state.status.success() && String::from_utf8_lossy(&state.stdout).trim() == "idle" {
                return Ok(cluster);
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "the node did not become idle within 60 s (sinfo: {:?} {}); slurmctld's log:\n{}\nslurmd's log:\n{}",
                    String::from_utf8_lossy(&state.stdout).trim(),
                    String::from_utf8_lossy(&state.stderr).trim(),
                    tail(&cluster.log("slurmctld"), 15),
                    tail(&cluster.log("slurmd"), 15)
                ));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The log file of `daemon` (`slurmctld` or `slurmd`).
    pub fn log(&self, daemon: &str) -> PathBuf {
        self.dir.path().join(format!("log/{daemon}.log"))
    }

    /// A Slurm client command (`sbatch`, `squeue`, ...) for this cluster,
    /// without the Slurm variables of the test's own environment (a test
    /// run inside a Slurm job, an `SBATCH_PARTITION` of the user's).
    pub fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(find_program(program).unwrap_or_else(|| program.into()));
        for (key, _) in std::env::vars_os() {
            let key = key.to_string_lossy();
            if key.starts_with("SLURM_") || key.starts_with("SBATCH_") || key.starts_with("SQUEUE_")
            {
                cmd.env_remove(&*key);
            }
        }
        cmd.env("SLURM_CONF", &self.conf);
        cmd
    }

    /// Runs `program ARGS` for this cluster; its output, whatever its status.
    pub fn run(&self, program: &str, args: &[&str]) -> Output {
        self.command(program)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{program}: {e}"))
    }

    /// Runs `program ARGS`, which must succeed; its standard output.
    pub fn ok(&self, program: &str, args: &[&str]) -> String {
        let out = self.run(program, args);
        assert!(
            out.status.success(),
            "{program} {}: {}\n{}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Submits with `sbatch --parsable` (`cmd` holds the rest: options,
    /// script, its arguments, working directory, environment); the job id.
    pub fn submit(&self, mut cmd: Command) -> String {
        let out = cmd
            .env("SLURM_CONF", &self.conf)
            .output()
            .expect("running sbatch");
        assert!(
            out.status.success(),
            "sbatch: {}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let id = text.trim().split(';').next().unwrap_or("").to_string();
        assert!(
            !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()),
            "sbatch printed {text:?}"
        );
        id
    }

    /// Every job the controller knows (`squeue --states=all`, also the
    /// ended ones): `(id, name, state)`, array tasks as `JOB_TASK` (a
    /// pending rest of an array as `JOB_[3-4]`).
    pub fn jobs(&self) -> Vec<(String, String, String)> {
        let text = self.ok("squeue", &["-h", "--states=all", "-o", "%i|%j|%T"]);
        text.lines()
            .filter_map(|l| {
                let mut f = l.split('|');
                Some((
                    f.next()?.trim().to_string(),
                    f.next()?.trim().to_string(),
                    f.next()?.trim().to_string(),
                ))
            })
            .collect()
    }

    /// Waits until `done` holds of the job list, polling `squeue` every
    /// half second, for at most `limit`; panics on timeout with the queue,
    /// the daemons' logs and `context` (e.g. the jobs' own logs).
    pub fn wait_until(
        &self,
        what: &str,
        limit: Duration,
        mut done: impl FnMut(&[(String, String, String)]) -> bool,
        context: impl Fn() -> String,
    ) -> Vec<(String, String, String)> {
        let deadline = Instant::now() + limit;
        loop {
            let jobs = self.jobs();
            if done(&jobs) {
                return jobs;
            }
            if Instant::now() > deadline {
                panic!(
                    "Slurm: {what} did not happen within {} s.\nsqueue --states=all: {jobs:?}\n\
                     slurmctld's log:\n{}\nslurmd's log:\n{}\n{}",
                    limit.as_secs(),
                    tail(&self.log("slurmctld"), 20),
                    tail(&self.log("slurmd"), 20),
                    context()
                );
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Jobs first (a shutdown leaves them running), then the daemons.
        let _ = self
            .command("scancel")
            .arg("--user")
            .arg(user_name().unwrap_or_default())
            .output();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            let active = self
                .command("squeue")
                .args(["-h", "-o", "%i"])
                .output()
                .map(|o| !o.stdout.is_empty())
                .unwrap_or(false);
            if !active {
                break;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        let _ = self
            .command("scontrol")
            .arg("shutdown")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        for (_, child) in &mut self.daemons {
            while Instant::now() < deadline && matches!(child.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(100));
            }
            // The whole group: slurmctld's helper (slurmscriptd) too.
            let pgid = child.id() as libc::pid_t;
            // SAFETY: kill(2) on a process group this test started.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
            let _ = child.wait();
        }
    }
}

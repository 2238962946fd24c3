//! What a shared library's file says of itself, read before it is
//! loaded: its ELF header (class, byte order, type, machine) and the type
//! of a symbol it defines (a function, or data). [`super::foreign`] checks
//! these so that a library the loader would refuse with a misleading
//! message (glibc says "No such file or directory" for a library of
//! another machine), or a symbol that is a variable (calling it would jump
//! into data), is refused with the real reason.
//!
//! Only what is needed is parsed, with every offset and size checked
//! against the file's length: a malformed file is "not an ELF shared
//! library", never a panic.

/// The facts of an ELF header that decide whether this process can load
/// the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// 64-bit (`ELFCLASS64`) or 32-bit.
    pub bits64: bool,
    /// Little-endian (`ELFDATA2LSB`) or big-endian.
    pub little_endian: bool,
    /// `e_type`: [`ET_DYN`] for a shared library.
    pub kind: u16,
    /// `e_machine`: [`EM_X86_64`], [`EM_AARCH64`], ...
    pub machine: u16,
}

/// `e_type` of a relocatable object (`.o`).
pub const ET_REL: u16 = 1;
/// `e_type` of a (non-PIE) executable.
pub const ET_EXEC: u16 = 2;
/// `e_type` of a shared object: a shared library (or a PIE executable).
pub const ET_DYN: u16 = 3;
/// `e_machine` of x86-64.
pub const EM_X86_64: u16 = 62;
/// `e_machine` of AArch64.
pub const EM_AARCH64: u16 = 183;

/// The `e_machine` of the architecture this program was built for
/// (`None` for one not in the table: the machine is then not checked).
pub fn host_machine() -> Option<u16> {
    Some(match std::env::consts::ARCH {
        "x86" => 3,
        "x86_64" => EM_X86_64,
        "arm" => 40,
        "aarch64" => EM_AARCH64,
        "mips" | "mips64" => 8,
        "powerpc" => 20,
        "powerpc64" => 21,
        "s390x" => 22,
        "sparc64" => 43,
        "riscv32" | "riscv64" => 243,
        "loongarch64" => 258,
        _ => return None,
    })
}

/// The header this program's own libraries have: its machine, class and
/// byte order.
pub fn host() -> Option<Header> {
    Some(Header {
        bits64: cfg!(target_pointer_width = "64"),
        little_endian: cfg!(target_endian = "little"),
        kind: ET_DYN,
        machine: host_machine()?,
    })
}

/// A machine for people: `AArch64`, `x86-64`, or `machine 1234`.
pub fn machine_name(machine: u16) -> String {
    match machine {
        3 => "x86 (i386)",
        8 => "MIPS",
        20 => "PowerPC",
        21 => "PowerPC 64",
        22 => "IBM S/390",
        40 => "ARM (32-bit)",
        43 => "SPARC V9",
        EM_X86_64 => "x86-64",
        EM_AARCH64 => "AArch64",
        243 => "RISC-V",
        258 => "LoongArch",
        other => return format!("machine {other}"),
    }
    .to_string()
}

/// `header`'s architecture for people: `AArch64 (64-bit, little-endian)`.
pub fn describe(header: &Header) -> String {
    format!(
        "{} ({}-bit, {}-endian)",
        machine_name(header.machine),
        if header.bits64 { 64 } else { 32 },
        if header.little_endian {
            "little"
        } else {
            "big"
        }
    )
}

/// The file's bytes, read by the header's class and byte order.
struct Reader<'a> {
    bytes: &'a [u8],
    header: Header,
}

impl Reader<'_> {
    fn u16(&self, at: u64) -> Option<u16> {
        let b: [u8; 2] = self.slice(at, 2)?.try_into().ok()?;
        Some(match self.header.little_endian {
            true => u16::from_le_bytes(b),
            false => u16::from_be_bytes(b),
        })
    }

    fn u32(&self, at: u64) -> Option<u32> {
        let b: [u8; 4] = self.slice(at, 4)?.try_into().ok()?;
        Some(match self.header.little_endian {
            true => u32::from_le_bytes(b),
            false => u32::from_be_bytes(b),
        })
    }

    fn u64(&self, at: u64) -> Option<u64> {
        let b: [u8; 8] = self.slice(at, 8)?.try_into().ok()?;
        Some(match self.header.little_endian {
            true => u64::from_le_bytes(b),
            false => u64::from_be_bytes(b),
        })
    }

    fn slice(&self, at: u64, len: u64) -> Option<&[u8]> {
        let start = usize::try_from(at).ok()?;
        let end = start.checked_add(usize::try_from(len).ok()?)?;
        self.bytes.get(start..end)
    }
}

/// Reads the ELF header of `bytes` (a file's start); `None` when it is not
/// an ELF file (no magic number, an unknown class or byte order, too
/// short).
pub fn header(bytes: &[u8]) -> Option<Header> {
    if bytes.len() < 20 || bytes[..4] != *b"\x7fELF" {
        return None;
    }
    let bits64 = match bytes[4] {
        1 => false,
        2 => true,
        _ => return None,
    };
    let little_endian = match bytes[5] {
        1 => true,
        2 => false,
        _ => return None,
    };
    let mut header = Header {
        bits64,
        little_endian,
        kind: 0,
        machine: 0,
    };
    let r = Reader { bytes, header };
    header.kind = r.u16(16)?;
    header.machine = r.u16(18)?;
    Some(header)
}

/// What a symbol defined in a library is, by its ELF type (`st_info`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolKind {
    /// A function (`STT_FUNC`, or `STT_GNU_IFUNC`: resolved to one).
    Function,
    /// A variable (`STT_OBJECT`, `STT_COMMON`).
    Data,
    /// A thread-local variable (`STT_TLS`).
    ThreadLocal,
    /// No type recorded (`STT_NOTYPE`: assembly labels), or another.
    Untyped,
}

/// The type of the symbol `name` as the library `bytes` defines it in its
/// dynamic symbol table (`.dynsym`, found through the section headers);
/// `None` when it does not define it there (a symbol of one of its
/// dependencies, which the loader also finds), or the table cannot be
/// read.
pub fn defined_symbol(bytes: &[u8], name: &str) -> Option<SymbolKind> {
    let header = header(bytes)?;
    let r = Reader { bytes, header };
    // e_shoff, e_shentsize, e_shnum.
    let (shoff, shentsize, shnum) = match header.bits64 {
        true => (r.u64(0x28)?, r.u16(0x3a)?, r.u16(0x3c)?),
        false => (u64::from(r.u32(0x20)?), r.u16(0x2e)?, r.u16(0x30)?),
    };
    // Section header fields: (sh_type, sh_offset, sh_size, sh_link, sh_entsize).
    let section = |i: u64| -> Option<(u32, u64, u64, u32, u64)> {
        let at = shoff.checked_add(i.checked_mul(u64::from(shentsize))?)?;
        Some(match header.bits64 {
            true => (
                r.u32(at.checked_add(4)?)?,
                r.u64(at.checked_add(24)?)?,
                r.u64(at.checked_add(32)?)?,
                r.u32(at.checked_add(40)?)?,
                r.u64(at.checked_add(56)?)?,
            ),
            false => (
                r.u32(at.checked_add(4)?)?,
                u64::from(r.u32(at.checked_add(16)?)?),
                u64::from(r.u32(at.checked_add(20)?)?),
                r.u32(at.checked_add(24)?)?,
                u64::from(r.u32(at.checked_add(36)?)?),
            ),
        })
    };
    const SHT_DYNSYM: u32 = 11;
    let (_, symoff, symsize, link, entsize) = (0..u64::from(shnum))
        .filter_map(section)
        .find(|s| s.0 == SHT_DYNSYM)?;
    let (_, stroff, strsize, _, _) = section(u64::from(link))?;
    let strings = r.slice(stroff, strsize)?;
    let min_entry = if header.bits64 { 24 } else { 16 };
    if entsize < min_entry {
        return None;
    }
    for i in 0..symsize / entsize {
        let at = symoff.checked_add(i * entsize)?;
        // (st_name, st_info, st_shndx)
        let (name_at, info, shndx) = match header.bits64 {
            true => (
                r.u32(at)?,
                r.slice(at.checked_add(4)?, 1)?[0],
                r.u16(at.checked_add(6)?)?,
            ),
            false => (
                r.u32(at)?,
                r.slice(at.checked_add(12)?, 1)?[0],
                r.u16(at.checked_add(14)?)?,
            ),
        };
        // SHN_UNDEF: a symbol the library uses, not one it defines.
        if shndx == 0 {
            continue;
        }
        let Some(rest) = strings.get(name_at as usize..) else {
            continue;
        };
        let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
        if &rest[..end] != name.as_bytes() {
            continue;
        }
        return Some(match info & 0xf {
            2 | 10 => SymbolKind::Function,
            1 | 5 => SymbolKind::Data,
            6 => SymbolKind::ThreadLocal,
            _ => SymbolKind::Untyped,
        });
    }
    None
}

/// Whether `address` lies in a mapping of this process that is executable,
/// by `/proc/self/maps`; `None` when that cannot be read (not Linux, no
/// `/proc`) or no mapping holds the address.
pub fn executable_address(address: usize) -> Option<bool> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    executable_in(&maps, address)
}

/// [`executable_address`] on the text of a `maps` file: lines
/// `start-end perms ...`, addresses in hex.
fn executable_in(maps: &str, address: usize) -> Option<bool> {
    maps.lines().find_map(|line| {
        let mut fields = line.split_whitespace();
        let (start, end) = fields.next()?.split_once('-')?;
        let perms = fields.next()?;
        let start = usize::from_str_radix(start, 16).ok()?;
        let end = usize::from_str_radix(end, 16).ok()?;
        (start..end)
            .contains(&address)
            .then(|| perms.as_bytes().get(2) == Some(&b'x'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The smallest header: magic, class, byte order, type, machine.
    fn tiny(bits64: bool, little: bool, kind: u16, machine: u16) -> Vec<u8> {
        let mut b = vec![0u8; 64];
        b[..4].copy_from_slice(b"\x7fELF");
        b[4] = if bits64 { 2 } else { 1 };
        b[5] = if little { 1 } else { 2 };
        b[6] = 1;
        let (k, m) = match little {
            true => (kind.to_le_bytes(), machine.to_le_bytes()),
            false => (kind.to_be_bytes(), machine.to_be_bytes()),
        };
        b[16..18].copy_from_slice(&k);
        b[18..20].copy_from_slice(&m);
        b
    }

    #[test]
    fn headers_are_read_in_their_byte_order() {
        let h = header(&tiny(true, true, ET_DYN, EM_AARCH64)).unwrap();
        assert_eq!(
            h,
            Header {
                bits64: true,
                little_endian: true,
                kind: ET_DYN,
                machine: EM_AARCH64
            }
        );
        assert_eq!(describe(&h), "AArch64 (64-bit, little-endian)");
        let h = header(&tiny(false, false, ET_EXEC, 20)).unwrap();
        assert_eq!(
            (h.bits64, h.little_endian, h.kind, h.machine),
            (false, false, ET_EXEC, 20)
        );
        assert_eq!(describe(&h), "PowerPC (32-bit, big-endian)");
        assert_eq!(machine_name(9999), "machine 9999");
    }

    #[test]
    fn what_is_not_elf_has_no_header() {
        assert_eq!(header(b"not a library\n"), None);
        assert_eq!(header(b"\x7fELF"), None);
        let mut bad_class = tiny(true, true, ET_DYN, EM_X86_64);
        bad_class[4] = 7;
        assert_eq!(header(&bad_class), None);
        // No section headers: no symbol found, no panic.
        assert_eq!(defined_symbol(&tiny(true, true, ET_DYN, 62), "solve"), None);
        let mut wild = tiny(true, true, ET_DYN, 62);
        wild[0x28..0x30].copy_from_slice(&u64::MAX.to_le_bytes());
        wild[0x3c..0x3e].copy_from_slice(&5u16.to_le_bytes());
        wild[0x3a..0x3c].copy_from_slice(&64u16.to_le_bytes());
        assert_eq!(defined_symbol(&wild, "solve"), None);
    }

    #[test]
    fn the_host_is_known_on_common_machines() {
        if let Some(h) = host() {
            assert_eq!(h.kind, ET_DYN);
            if std::env::consts::ARCH == "x86_64" {
                assert_eq!(h.machine, EM_X86_64);
            }
        }
    }

    #[test]
    fn maps_lines_say_which_addresses_are_executable() {
        let maps = "\
00400000-00452000 r-xp 00000000 08:02 173521 /usr/bin/x
00651000-00652000 rw-p 00051000 08:02 173521 /usr/bin/x
";
        assert_eq!(executable_in(maps, 0x400100), Some(true));
        assert_eq!(executable_in(maps, 0x651010), Some(false));
        assert_eq!(executable_in(maps, 0x10), None);
        // This very function is in executable memory.
        let f = executable_in as fn(&str, usize) -> Option<bool>;
        if let Some(x) = executable_address(f as usize) {
            assert!(x);
        }
        let data = Box::new(3u64);
        if let Some(x) = executable_address(&*data as *const u64 as usize) {
            assert!(!x);
        }
    }
}

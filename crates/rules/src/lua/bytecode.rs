//! Reading Luau bytecode compiled from a script, to refuse a function that
//! writes a variable of the script's top level (an upvalue that outlives
//! one hook call: state the host cannot see, so undo and replay break).
//!
//! The format is the one `luau_load` reads (VM/src/lvmload.cpp and
//! Common/include/Luau/Bytecode.h of the vendored Luau): a string table,
//! then each function prototype (header, code, constants, child
//! prototypes, line info, debug info), then the main prototype's id.

/// Opcodes read here (`LuauOpcode`).
const LOP_SETUPVAL: u8 = 10;
const LOP_NEWCLOSURE: u8 = 19;
const LOP_DUPCLOSURE: u8 = 64;
const LOP_CAPTURE: u8 = 70;
/// Opcodes followed by an AUX word (`getOpLength` returns 2).
const WITH_AUX: [u8; 29] = [
    7, 8, 12, 15, 16, 20, 27, 28, 29, 30, 31, 32, 53, 55, 58, 66, 74, 75, 60, 77, 78, 79, 80, 83,
    84, 85, 86, 87, 88,
];
const LOP_NEWCLASS: u8 = 90;
/// `LCT_UPVAL`: a capture of the enclosing function's own upvalue.
const LCT_UPVAL: u8 = 2;

/// A function prototype, as far as the scan needs it.
#[derive(Default)]
struct Proto {
    nups: usize,
    code: Vec<u32>,
    /// Per constant: the prototype id, for closure constants.
    closure_consts: Vec<Option<usize>>,
    children: Vec<usize>,
    linegaplog2: u8,
    lineinfo: Vec<u8>,
    abslineinfo: Vec<i32>,
}

impl Proto {
    fn line(&self, pc: usize) -> i32 {
        if self.lineinfo.is_empty() {
            return 0;
        }
        let abs = self.abslineinfo.get(pc >> self.linegaplog2).copied();
        abs.unwrap_or(0) + i32::from(self.lineinfo[pc])
    }
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u8(&mut self) -> Result<u8, String> {
        let b = *self.data.get(self.at).ok_or("bytecode ends early")?;
        self.at += 1;
        Ok(b)
    }
    fn bytes(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.data.len());
        let end = end.ok_or("bytecode ends early")?;
        let s = &self.data[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, String> {
        let b = self.bytes(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("bad varint in bytecode".into())
    }
    fn count(&mut self) -> Result<usize, String> {
        Ok(self.varint()? as usize)
    }
}

/// The lines (1-based) where a function writes a variable of the main
/// chunk, in `bytecode` as the vendored compiler writes it.
pub(super) fn top_level_writes(bytecode: &[u8]) -> Result<Vec<i32>, String> {
    let (protos, main) = parse(bytecode)?;
    // Per prototype: which of its upvalues are (chains to) main's locals.
    let mut from_main: Vec<Vec<bool>> = protos.iter().map(|p| vec![false; p.nups]).collect();
    let mut seen = vec![false; protos.len()];
    let mut work = vec![main];
    while let Some(i) = work.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        for (child, caps) in closures(&protos[i]) {
            for (k, (kind, index)) in caps.into_iter().enumerate() {
                let captured = if kind == LCT_UPVAL {
                    from_main[i].get(index).copied().unwrap_or(false)
                } else {
                    i == main
                };
                if let Some(slot) = from_main.get_mut(child).and_then(|u| u.get_mut(k)) {
                    *slot |= captured;
                }
            }
            work.push(child);
        }
    }
    let mut lines = Vec::new();
    for (i, p) in protos.iter().enumerate() {
        for (pc, insn) in instructions(&p.code) {
            let b = ((insn >> 16) & 0xff) as usize;
            if insn as u8 == LOP_SETUPVAL && from_main[i].get(b).copied().unwrap_or(false) {
                lines.push(p.line(pc));
            }
        }
    }
    lines.sort_unstable();
    lines.dedup();
    Ok(lines)
}

/// The instructions of a code array with their pcs, AUX words skipped.
fn instructions(code: &[u32]) -> impl Iterator<Item = (usize, u32)> + '_ {
    let mut pc = 0;
    std::iter::from_fn(move || {
        let insn = *code.get(pc)?;
        let at = pc;
        let op = insn as u8;
        pc += if WITH_AUX.contains(&op) || op == LOP_NEWCLASS {
            2
        } else {
            1
        };
        Some((at, insn))
    })
}

/// The closures a prototype creates: the child's id and its captures
/// (kind, register or upvalue index), in order.
fn closures(p: &Proto) -> Vec<(usize, Vec<(u8, usize)>)> {
    let mut out: Vec<(usize, Vec<(u8, usize)>)> = Vec::new();
    let mut open = false;
    for (_, insn) in instructions(&p.code) {
        let op = insn as u8;
        let d = ((insn as i32) >> 16) as usize;
        let child = match op {
            LOP_NEWCLOSURE => p.children.get(d).copied(),
            LOP_DUPCLOSURE => p.closure_consts.get(d).copied().flatten(),
            LOP_CAPTURE if open => {
                let kind = ((insn >> 8) & 0xff) as u8;
                let index = ((insn >> 16) & 0xff) as usize;
                if let Some(last) = out.last_mut() {
                    last.1.push((kind, index));
                }
                continue;
            }
            _ => None,
        };
        open = child.is_some();
        if let Some(c) = child {
            out.push((c, Vec::new()));
        }
    }
    out
}

/// The prototypes and the main one's id.
fn parse(data: &[u8]) -> Result<(Vec<Proto>, usize), String> {
    let mut r = Reader { data, at: 0 };
    let version = r.u8()?;
    if !(3..=14).contains(&version) {
        return Err(format!("unexpected bytecode version {version}"));
    }
    let types_version = if version >= 4 { r.u8()? } else { 0 };
    for _ in 0..r.count()? {
        let n = r.count()?;
        r.bytes(n)?;
    }
    if types_version == 3 {
        while r.u8()? != 0 {
            r.count()?; // the userdata type's name
        }
    }
    let n = r.count()?;
    let mut protos = Vec::with_capacity(n.min(1 << 16));
    for _ in 0..n {
        protos.push(parse_proto(&mut r, version, types_version)?);
    }
    let main = r.count()?;
    if main >= protos.len() {
        return Err("bad main function in bytecode".into());
    }
    Ok((protos, main))
}

fn parse_proto(r: &mut Reader, version: u8, types_version: u8) -> Result<Proto, String> {
    let size = if version >= 12 {
        Some(r.count()?)
    } else {
        None
    };
    let start = r.at;
    let mut p = Proto::default();
    r.bytes(2)?; // maxstacksize, numparams
    p.nups = r.u8()? as usize;
    r.u8()?; // is_vararg
    if version >= 4 {
        r.u8()?; // flags
        if types_version > 0 {
            let n = r.count()?;
            r.bytes(n)?;
        }
    }
    let sizecode = r.count()?;
    p.code = (0..sizecode).map(|_| r.u32()).collect::<Result<_, _>>()?;
    let sizek = r.count()?;
    p.closure_consts = (0..sizek).map(|_| constant(r)).collect::<Result<_, _>>()?;
    let sizep = r.count()?;
    p.children = (0..sizep).map(|_| r.count()).collect::<Result<_, _>>()?;
    r.count()?; // linedefined
    r.count()?; // debugname
    if r.u8()? != 0 {
        p.linegaplog2 = r.u8()?;
        let mut last = 0u8;
        for _ in 0..sizecode {
            last = last.wrapping_add(r.u8()?);
            p.lineinfo.push(last);
        }
        let intervals = ((sizecode.max(1) - 1) >> p.linegaplog2) + 1;
        let mut line = 0i32;
        for _ in 0..intervals {
            line = line.wrapping_add(r.u32()? as i32);
            p.abslineinfo.push(line);
        }
    }
    match size {
        // Whatever follows the line info is skipped by the size.
        Some(size) => r.at = start + size,
        None => skip_debug_info(r, version)?,
    }
    Ok(p)
}

/// Reads one constant; the prototype id if it is a closure.
fn constant(r: &mut Reader) -> Result<Option<usize>, String> {
    let k = r.u8()?;
    match k {
        0 => {}         // nil
        1 => r.at += 1, // boolean
        2 => r.at += 8, // number
        3 | 9 => {
            // string (its index); integer (sign, then magnitude)
            if k == 9 {
                r.u8()?;
            }
            r.varint()?;
        }
        4 => r.at += 4, // import
        5 => {
            // table: its keys
            for _ in 0..r.count()? {
                r.count()?;
            }
        }
        6 => return Ok(Some(r.count()?)), // closure
        7 => r.at += 16,                  // vector
        8 => {
            // table with constants: key and constant index per entry
            for _ in 0..r.count()? {
                r.count()?;
                r.u32()?;
            }
        }
        10 => {
            // class shape: name, then properties and methods
            r.count()?;
            let members = r.count()? + r.count()?;
            for _ in 0..members {
                r.count()?;
            }
        }
        11 => r.at += 32, // vector of doubles
        _ => return Err(format!("unknown constant kind {k} in bytecode")),
    }
    Ok(None)
}

/// Debug info and call feedback of bytecode older than version 12 (which
/// has no prototype sizes to skip by).
fn skip_debug_info(r: &mut Reader, version: u8) -> Result<(), String> {
    if r.u8()? != 0 {
        for _ in 0..r.count()? {
            r.count()?; // name
            r.count()?; // startpc
            r.count()?; // endpc
            r.u8()?; // register
        }
        for _ in 0..r.count()? {
            r.count()?;
        }
    }
    if version >= 11 {
        for _ in 0..r.count()? {
            r.u8()?;
            r.count()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::top_level_writes;

    fn writes(src: &str) -> Vec<i32> {
        let bytes = mlua::chunk::Compiler::new()
            .set_optimization_level(2)
            .compile(src)
            .unwrap();
        top_level_writes(&bytes).unwrap()
    }

    #[test]
    fn finds_writes_of_top_level_locals_only() {
        assert_eq!(
            writes("local n = 0\nfunction f()\n n = n + 1\nend"),
            vec![3]
        );
        assert_eq!(
            writes("local n = 0\nfunction f()\n local function g()\n  n = 2\n end\n g()\nend"),
            vec![4]
        );
        assert!(writes(
            "function f()\n local n = 0\n local function g() n = n + 1 end\n g()\n return n\nend"
        )
        .is_empty());
        assert!(writes("local t = {}\nfunction f() t.x = 1 return #t end").is_empty());
        assert!(writes("local n = 0\nn = n + 1\nfunction f() return n end").is_empty());
        // Many constants and a table sort with a comparator.
        assert!(writes("local k = {a = 1, b = 2.5, c = 'x'}\nfunction f(t) table.sort(t, function(a, b) return k[a] < k[b] end) end").is_empty());
    }
}

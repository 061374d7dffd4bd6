use aeslab::gcm::Gcm;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let len: usize = args.get(1).map_or(65536, |s| s.parse().unwrap());
    let iters: usize = args.get(2).map_or(20000, |s| s.parse().unwrap());
    let gcm = Gcm::new(&[7u8; 16]).unwrap();
    let mut buf = vec![1u8; len];
    let t = std::time::Instant::now();
    let mut x = 0u8;
    for i in 0..iters {
        let mut nonce = [0u8; 12];
        nonce[..8].copy_from_slice(&(i as u64).to_le_bytes());
        let tag = gcm.encrypt_in_place_detached(&nonce, b"", &mut buf).unwrap();
        x ^= tag[0];
    }
    let el = t.elapsed();
    println!("{x} {:.3} ns/byte", el.as_nanos() as f64 / (iters * len) as f64);
}

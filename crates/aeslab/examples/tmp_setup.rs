use aeslab::gcm::Aes128Gcm;
use cipher::KeyInit;
fn main() {
    let iters = 5_000_000usize;
    let t = std::time::Instant::now();
    let mut x = 0usize;
    for i in 0..iters {
        let mut key = [7u8; 16];
        key[0] = i as u8;
        let g = Aes128Gcm::new(&key.into());
        x = x.wrapping_add(std::hint::black_box(&g) as *const _ as usize);
    }
    println!("{x} {:.1} ns", t.elapsed().as_nanos() as f64 / iters as f64);
}

//! `saturn_iso::IpTemplate::parse` on any input (an IP template: an SDK's IP.BIN or the
//! start of a disc image), then the IP built from what it accepted: never a panic, and
//! that IP always holds the template's security code and area blocks where a BIOS reads
//! them, our stub right after the last block.
#![no_main]

use libfuzzer_sys::fuzz_target;
use saturn_iso::{
    boot_stub, build_ip_from_template, stub_offset, IpConfig, IpTemplate, AREA_BLOCK_SIZE,
    AREA_BLOCK_SYMBOL, IP_SIZE, SECURITY_CODE,
};

fuzz_target!(|data: &[u8]| {
    let Ok(template) = IpTemplate::parse(data, "fuzz") else {
        return;
    };
    let symbols = template.symbols();
    assert!((1..=8).contains(&symbols.len()));
    let (security_at, security_size) = SECURITY_CODE;
    assert_eq!(
        template.security_code,
        &data[security_at..security_at + security_size]
    );
    // Every area, then the same in reverse order: the blocks follow the order asked.
    let reversed: String = symbols.chars().rev().collect();
    for areas in [symbols.clone(), reversed] {
        let mut config = IpConfig::new("FUZZ", 0x0600_4000);
        config.area_symbols = areas.clone();
        let ip = build_ip_from_template(&config, &template).expect("its own areas");
        assert_eq!(ip.len(), IP_SIZE);
        assert_eq!(&ip[..16], b"SEGA SEGASATURN ");
        assert_eq!(
            ip[security_at..security_at + security_size],
            data[security_at..security_at + security_size]
        );
        for (i, symbol) in areas.bytes().enumerate() {
            let block = &ip[stub_offset(i)..stub_offset(i) + AREA_BLOCK_SIZE];
            assert_eq!(block[AREA_BLOCK_SYMBOL], symbol);
        }
        let stub = stub_offset(areas.len());
        assert_eq!(ip[stub..stub + 12], boot_stub(0x0600_4000));
        assert!(ip[stub + 12..].iter().all(|&b| b == 0));
    }
    // An area the template lacks is refused, never written.
    if let Some(missing) = "JTUBKAEL".chars().find(|c| !symbols.contains(*c)) {
        let mut config = IpConfig::new("FUZZ", 0x0600_4000);
        config.area_symbols = missing.to_string();
        assert!(build_ip_from_template(&config, &template).is_err());
    }
});

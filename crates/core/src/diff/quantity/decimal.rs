//! The exact decimal arithmetic a quantity is worked out in.

/// An exact non-negative decimal: `digits` × 10^`exponent`, the digits
/// without leading zeros (none for zero).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Decimal {
    pub(super) digits: Vec<u8>,
    pub(super) exponent: i64,
}

impl Decimal {
    pub(super) fn of(digits: &str, exponent: i64) -> Decimal {
        let digits: Vec<u8> = digits
            .bytes()
            .skip_while(|byte| *byte == b'0')
            .map(|byte| byte - b'0')
            .collect();
        Decimal { digits, exponent }
    }

    pub(super) fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    pub(super) fn multiply_by_power_of_two(&mut self, power: u32) {
        let factor = 1u128 << power;
        let mut carry = 0u128;
        for digit in self.digits.iter_mut().rev() {
            let product = u128::from(*digit) * factor + carry;
            *digit = (product % 10) as u8;
            carry = product / 10;
        }
        let mut front = Vec::new();
        while carry > 0 {
            front.push((carry % 10) as u8);
            carry /= 10;
        }
        front.reverse();
        front.append(&mut self.digits);
        self.digits = front;
    }

    /// Rounds up (away from zero) to a multiple of 10^`exponent`; whether
    /// nothing was lost.
    pub(super) fn round_up_to(&mut self, exponent: i64) -> bool {
        if self.is_zero() || self.exponent >= exponent {
            return true;
        }
        let dropped = exponent - self.exponent;
        let kept = self.digits.len() as i64 - dropped;
        self.exponent = exponent;
        if kept <= 0 {
            self.digits = vec![1];
            return false;
        }
        let lost = self.digits.split_off(kept as usize);
        let exact = lost.iter().all(|digit| *digit == 0);
        if !exact {
            self.add_one();
        }
        exact
    }

    fn add_one(&mut self) {
        for digit in self.digits.iter_mut().rev() {
            if *digit < 9 {
                *digit += 1;
                return;
            }
            *digit = 0;
        }
        self.digits.insert(0, 1);
    }

    /// The same value with its trailing zeros moved into the exponent.
    pub(super) fn trimmed(mut self) -> Decimal {
        while self.digits.last() == Some(&0) {
            self.digits.pop();
            self.exponent += 1;
        }
        self
    }

    pub(super) fn cmp_magnitude(&self, other: &Decimal) -> std::cmp::Ordering {
        let (a, b) = (self.clone().trimmed(), other.clone().trimmed());
        match (a.is_zero(), b.is_zero()) {
            (true, true) => return std::cmp::Ordering::Equal,
            (true, false) => return std::cmp::Ordering::Less,
            (false, true) => return std::cmp::Ordering::Greater,
            (false, false) => {}
        }
        let top = |d: &Decimal| d.digits.len() as i64 + d.exponent;
        top(&a).cmp(&top(&b)).then_with(|| a.digits.cmp(&b.digits))
    }

    /// The value as an integer, when it is one and fits in 64 bits.
    pub(super) fn as_integer(&self) -> Option<u64> {
        let trimmed = self.clone().trimmed();
        if trimmed.is_zero() {
            return Some(0);
        }
        if trimmed.exponent < 0 || trimmed.digits.len() as i64 + trimmed.exponent > 20 {
            return None;
        }
        let mut value = 0u64;
        for digit in &trimmed.digits {
            value = value.checked_mul(10)?.checked_add(u64::from(*digit))?;
        }
        for _ in 0..trimmed.exponent {
            value = value.checked_mul(10)?;
        }
        Some(value)
    }
}

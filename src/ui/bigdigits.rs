//! A 3×5 pixel font for the countdown, drawn in two sizes with the same proportions: whole
//! blocks two columns per pixel (5 rows), or half blocks one column per pixel (3 rows).

/// How large to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// Five rows, each pixel two columns of `█`.
    Large,
    /// Three rows, two pixel rows per cell with `▀`/`▄`.
    Small,
}

const ROWS: usize = 5;

/// The pixels of one glyph, top row first; `#` is lit.
fn glyph(c: char) -> Option<[&'static str; ROWS]> {
    Some(match c {
        '0' => ["###", "#.#", "#.#", "#.#", "###"],
        '1' => ["##.", ".#.", ".#.", ".#.", "###"],
        '2' => ["###", "..#", "###", "#..", "###"],
        '3' => ["###", "..#", ".##", "..#", "###"],
        '4' => ["#.#", "#.#", "###", "..#", "..#"],
        '5' => ["###", "#..", "###", "..#", "###"],
        '6' => ["###", "#..", "###", "#.#", "###"],
        '7' => ["###", "..#", "..#", "..#", "..#"],
        '8' => ["###", "#.#", "###", "#.#", "###"],
        '9' => ["###", "#.#", "###", "..#", "###"],
        ':' => [".", "#", ".", "#", "."],
        '-' => ["...", "...", "###", "...", "..."],
        _ => return None,
    })
}

/// The width `text` takes at `size`, or `None` when it has a character the font lacks.
pub fn width(text: &str, size: Size) -> Option<usize> {
    let per_pixel = match size {
        Size::Large => 2,
        Size::Small => 1,
    };
    let mut total = 0;
    for (i, c) in text.chars().enumerate() {
        total += glyph(c)?[0].len() * per_pixel + usize::from(i > 0);
    }
    Some(total)
}

/// `text` drawn in the font, one string per terminal row; `None` when a character is missing.
pub fn render(text: &str, size: Size) -> Option<Vec<String>> {
    let glyphs: Vec<[&str; ROWS]> = text.chars().map(glyph).collect::<Option<_>>()?;
    let pixel_row = |r: usize| -> Vec<Vec<bool>> {
        glyphs
            .iter()
            .map(|g| g[r].chars().map(|p| p == '#').collect())
            .collect()
    };
    let rows = match size {
        Size::Large => (0..ROWS)
            .map(|r| join(&pixel_row(r), |lit| if lit { "██" } else { "  " }))
            .collect(),
        Size::Small => (0..ROWS.div_ceil(2))
            .map(|cell_row| {
                let top = pixel_row(cell_row * 2);
                let bottom = if cell_row * 2 + 1 < ROWS {
                    pixel_row(cell_row * 2 + 1)
                } else {
                    top.iter().map(|g| vec![false; g.len()]).collect()
                };
                let mut out = String::new();
                for (i, (t, b)) in top.iter().zip(&bottom).enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    for (&t, &b) in t.iter().zip(b) {
                        out.push(match (t, b) {
                            (true, true) => '█',
                            (true, false) => '▀',
                            (false, true) => '▄',
                            (false, false) => ' ',
                        });
                    }
                }
                out
            })
            .collect(),
    };
    Some(rows)
}

fn join(glyphs: &[Vec<bool>], pixel: impl Fn(bool) -> &'static str) -> String {
    glyphs
        .iter()
        .map(|g| g.iter().map(|&p| pixel(p)).collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sizes_have_the_width_they_claim() {
        for size in [Size::Large, Size::Small] {
            let rows = render("2:15:00", size).unwrap();
            let w = width("2:15:00", size).unwrap();
            assert!(rows.iter().all(|r| r.chars().count() == w), "{size:?}");
        }
        assert_eq!(render("1", Size::Small).unwrap(), vec!["▀█ ", " █ ", "▀▀▀"]);
        assert_eq!(render("x", Size::Large), None);
    }
}

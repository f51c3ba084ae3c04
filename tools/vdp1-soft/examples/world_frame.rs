//! Draws the world's fixed frame (the scene of `world/src/scene.rs`, included here word for
//! word) through the engine's `Renderer` and the software VDP1, over the VDP2 floor and
//! sky as `jom::vdp2` computes them for the same camera: the picture the emulators'
//! screenshots of `ci/world.sh test` are compared with. It writes a second picture of the
//! same frame without the floor (the back screen's colour where the VDP1 drew nothing),
//! with which `floor_check` finds the pixels the VDP2 shows alone.
//!
//! `cargo run -p vdp1-soft --example world_frame -- DIR OUT.png SPRITES.png [--fog] [--walker X,Z,YAW]`
//! `cargo run -p vdp1-soft --example world_frame -- DIR (--walk | --sweep) [--finest]`
//!
//! DIR holds HERO.JOM, LEVEL.JOM, FOREST.JOM and GRASS.BIN (`make world`'s
//! build/world). `--fog`: the frame in the world's fog (its `fog` feature). `--walker` (units and raw angle units of 1/65,536 turn) draws another
//! view. `--walk` counts the polygons drawn along the measuring build's walk
//! (`scene::measured_walk`, every frame of it) and prints the least, the average and the
//! most. `--sweep` draws the views from every point of a 1-unit grid within the
//! character's reach, at 16 headings each, and prints the most polygons drawn and command
//! tables; it fails (the renderer's error) when a view does not fit the world's renderer
//! memory, or leaves a polygon out for room in its command list or gouraud tables.
//! `--finest`: every person drawn at the model itself, its lower level left out (what the
//! levels of detail save).

#[path = "../../../world/src/scene.rs"]
#[allow(dead_code)]
mod scene;

use jom::anim::{bone_matrices, root_matrix, AnimationPlayer};
use jom::format::MAX_BONES;
use jom::math::{Angle, Matrix, ONE};
use jom::render::{FrameStats, Posed, Renderer};
use jom::vdp1::{MemoryVram, VRAM_SIZE};
use jom::Model;
use std::cell::RefCell;
use std::path::Path;
use vdp1_soft::preview::write_png;
use vdp1_soft::{draw_list, FrameBuffer};

fn read(path: &Path) -> Result<jom_write::AlignedBytes, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(jom_write::AlignedBytes::new(&bytes))
}

fn walker(text: &str) -> Result<scene::Walker, String> {
    let parts: Vec<f64> = text
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("--walker {text}: {e}"))?;
    let [x, z, yaw] = parts[..] else {
        return Err(format!("--walker {text}: expected X,Z,YAW"));
    };
    Ok(scene::Walker {
        x: (x * f64::from(ONE)) as i32,
        z: (z * f64::from(ONE)) as i32,
        yaw: Angle(yaw as i32 as i16),
    })
}

fn main() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let [fog, finest] = ["--fog", "--finest"].map(|flag| args.iter().any(|a| a == flag));
    args.retain(|a| a != "--fog" && a != "--finest");
    let usage = "usage: world_frame DIR (OUT.png SPRITES.png [--fog] [--walker X,Z,YAW] | --walk | --sweep) [--finest]";
    let [dir, options @ ..] = args.as_slice() else {
        return Err(usage.into());
    };
    let dir = Path::new(dir);
    let file = |name: &str| read(&dir.join(name));
    let hero_bytes = file(scene::HERO_FILE)?;
    let forest_bytes = file(scene::FOREST_FILE)?;
    let village_bytes = file(scene::LEVEL_FILE)?;
    let model = |bytes: &'static jom_write::AlignedBytes, name: &str| {
        Model::from_bytes(bytes.bytes()).map_err(|e| format!("{name}: {e}"))
    };
    // The example's models: kept for the program's life.
    let hero = model(Box::leak(Box::new(hero_bytes)), scene::HERO_FILE)?;
    let forest = model(Box::leak(Box::new(forest_bytes)), scene::FOREST_FILE)?;
    let village = model(Box::leak(Box::new(village_bytes)), scene::LEVEL_FILE)?;

    let memory = scene::world_memory!().ok_or("renderer memory taken twice")?;
    let mut vram = vec![0u8; VRAM_SIZE as usize];
    let renderer = Renderer::new(MemoryVram::new(&mut vram), memory, None)
        .map_err(|e| format!("renderer: {e}"))?;
    let load = |model: &Model<'static>, name: &str| {
        renderer.load(model).map_err(|e| format!("{name}: {e}"))
    };
    let hero_far = hero.level(1).ok_or("HERO.JOM: no lower level of detail")?;
    let hero_handles = [
        load(&hero, scene::HERO_FILE)?,
        load(&hero_far, scene::HERO_FILE)?,
    ];
    let forest_handle = load(&forest, scene::FOREST_FILE)?;
    let mut trees = [scene::Tree::default(); scene::TREES];
    let tree_count = scene::trees(&forest, &mut trees);
    let tree = renderer
        .sprite(&forest_handle, 0)
        .ok_or("FOREST.JOM: no texture for the trees")?;
    let village_handle = load(&village, scene::LEVEL_FILE)?;
    let level = scene::Level {
        village: &village_handle,
        tree,
        trees: &trees[..tree_count],
    };
    let world = World {
        renderer: &renderer,
        hero: &hero,
        people: RefCell::new(scene::People::new(match finest {
            false => [&hero_handles[0], &hero_handles[1]],
            true => [&hero_handles[0], &hero_handles[0]],
        })),
        level,
        fog: fog.then_some(scene::FOG),
    };
    match options {
        [walk] if walk == "--walk" => {
            let (least, sum, most, frames, billboards) = world.walk()?;
            println!(
                "the measured walk: {frames} frames, {least} to {most} polygons drawn, {:.0} on average; {:.1} billboards a frame",
                sum as f64 / frames as f64,
                billboards as f64 / frames as f64
            );
            Ok(())
        }
        [sweep] if sweep == "--sweep" => {
            let (views, most, at, commands) = world.sweep()?;
            println!("every view within reach: {views} views fit the renderer's memory, at most {most} polygons drawn (at {at:?}), {commands} command tables");
            Ok(())
        }
        [output, sprites, rest @ ..] => {
            let view = match rest {
                [] => scene::FIXED_WALKER,
                [flag, value] if flag == "--walker" => walker(value)?,
                _ => return Err(usage.into()),
            };
            let [player, idle] = [scene::WALK, scene::IDLE].map(|animation| {
                let mut player = AnimationPlayer::new(&hero);
                player.play(animation);
                player.seek(scene::FIXED_TICKS);
                player
            });
            let stats = world.draw(&player, &idle, &view)?;
            let levels = world.people.borrow().lods.map(|lod| lod.level());
            drop((village_handle, forest_handle, hero_handles));
            // The jump at VRAM 0 points at the list just written (CMDLINK = address / 8).
            let list = u32::from(u16::from_be_bytes([vram[2], vram[3]])) * 8;
            let camera = view.camera();
            let mut picture =
                FrameBuffer::new(usize::from(camera.width), usize::from(camera.height));
            draw_list(&vram, list, &mut picture).map_err(|e| e.to_string())?;
            let mut alone = picture.clone();
            for pixel in alone.pixels.iter_mut().filter(|p| **p == 0) {
                *pixel = scene::BACKGROUND;
            }
            write_png(&alone, Path::new(sprites))?;
            let floor = floor_colours(dir, &camera)?;
            for (i, pixel) in picture.pixels.iter_mut().enumerate() {
                if *pixel == 0 {
                    *pixel = floor(i % picture.width, i / picture.width);
                }
            }
            write_png(&picture, Path::new(output))?;
            println!(
                "{output}: the world's frame, {} polygons drawn ({} commands), {} culled, {} billboards of {tree_count} trees; levels of detail (the character's, then the villagers'): {levels:?}",
                stats.drawn, stats.commands, stats.culled, stats.billboards
            );
            Ok(())
        }
        _ => Err(usage.into()),
    }
}

/// The VDP2's colour at each pixel the VDP1 leaves empty: the floor and the sky for
/// `camera`, as `jom::vdp2` computes them (the VDP2's arithmetic).
fn floor_colours(
    dir: &Path,
    camera: &jom::render::Camera,
) -> Result<Box<dyn Fn(usize, usize) -> u16>, String> {
    let path = dir.join("GRASS.BIN");
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    let tiles =
        jom::vdp2::FloorTiles::from_bytes(bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let floor = scene::floor().map_err(|e| e.to_string())?;
    let mut frame = jom::vdp2::FloorFrame::default();
    floor
        .frame_into(camera, jom::vdp2::floor::Buffer(0), &mut frame)
        .map_err(|e| e.to_string())?;
    Ok(Box::new(move |x, y| {
        0x8000 | frame.color(&tiles, x as i32, y)
    }))
}

/// The world's scene loaded into a renderer.
struct World<'s, 'm> {
    renderer: &'s Renderer<'m, MemoryVram<'m>>,
    hero: &'s Model<'s>,
    /// The character's levels and each one's level of detail, kept from draw to draw (as
    /// the program keeps them from frame to frame).
    people: RefCell<scene::People<'s>>,
    level: scene::Level<'s>,
    fog: Option<jom::render::Fog>,
}

impl World<'_, '_> {
    /// Draws the frame of `player`'s pose with the character at `walker`, the villagers in
    /// `idle`'s.
    fn draw(
        &self,
        player: &AnimationPlayer<'_>,
        idle: &AnimationPlayer<'_>,
        walker: &scene::Walker,
    ) -> Result<FrameStats, String> {
        let (root, bones) = self.pose(player);
        let (idle_root, idle_bones) = self.pose(idle);
        let idle = scene::IdlePose {
            root: &idle_root,
            bones: &idle_bones,
        };
        let place = walker.place();
        let posed = Posed {
            transform: &place,
            root: &root,
            bones: &bones,
        };
        let camera = walker.camera();
        let mut frame = self
            .renderer
            .begin(&camera, Some(&scene::LIGHT))
            .map_err(|e| e.to_string())?;
        frame.set_fog(self.fog);
        scene::draw_level(&mut frame, &self.level)
            .and_then(|()| scene::draw_trees(&mut frame, &self.level))
            .and_then(|()| {
                let mut people = self.people.borrow_mut();
                let view = (&camera, walker);
                scene::draw_people(&mut frame, &mut people, &posed, &idle, view)
            })
            .map_err(|e| e.to_string())?;
        frame.finish().map_err(|e| e.to_string())
    }

    /// `player`'s pose of the character: its root's matrix and its bones'.
    fn pose(&self, player: &AnimationPlayer<'_>) -> (Matrix, [Matrix; MAX_BONES]) {
        let pose = player.pose(self.hero);
        let mut bones = [Matrix::IDENTITY; MAX_BONES];
        bone_matrices(self.hero, &pose, &mut bones);
        (root_matrix(&pose), bones)
    }

    /// The character's player, walking, and the villagers', idle, at their start.
    fn players(&self) -> [AnimationPlayer<'_>; 2] {
        [scene::WALK, scene::IDLE].map(|animation| {
            let mut player = AnimationPlayer::new(self.hero);
            player.play(animation);
            player
        })
    }

    /// Every view within reach (see `--sweep`): how many, the most polygons drawn, where,
    /// and the most command tables of the 3D.
    fn sweep(&self) -> Result<(usize, usize, scene::Walker, usize), String> {
        let [player, idle] = self.players();
        let reach = scene::REACH / ONE;
        let (mut views, mut most, mut at, mut commands) = (0, 0, scene::FIXED_WALKER, 0);
        for x in -reach..=reach {
            for z in -reach..=reach {
                if x * x + z * z > reach * reach {
                    continue;
                }
                for heading in 0..16 {
                    let walker = scene::Walker {
                        x: x * ONE,
                        z: z * ONE,
                        yaw: Angle((heading * 0x1000) as u16 as i16),
                    };
                    let stats = self
                        .draw(&player, &idle, &walker)
                        .map_err(|e| format!("{walker:?}: {e}"))?;
                    if stats.dropped > 0 {
                        return Err(format!(
                            "{walker:?}: {} polygons and billboards left out (the command list or the gouraud tables full)",
                            stats.dropped
                        ));
                    }
                    let drawn = stats.drawn;
                    commands = commands.max(stats.commands);
                    views += 1;
                    if drawn > most {
                        (most, at) = (drawn, walker);
                    }
                }
            }
        }
        Ok((views, most, at, commands))
    }

    /// The polygons drawn at every frame of the measured walk: least, sum, most, frames;
    /// and the billboards drawn in all.
    fn walk(&self) -> Result<(usize, usize, usize, usize, usize), String> {
        let [mut player, mut idle] = self.players();
        let (mut least, mut sum, mut most, mut frames, mut billboards) = (usize::MAX, 0, 0, 0, 0);
        let mut walker = scene::MEASURE_START;
        for frame in 0..scene::MEASURED_FRAMES {
            walker = scene::measured_walk(walker, frame);
            player.advance(1);
            idle.advance(1);
            let stats = self.draw(&player, &idle, &walker)?;
            if stats.dropped > 0 {
                return Err(format!(
                    "frame {frame} of the walk: {} left out for room",
                    stats.dropped
                ));
            }
            let drawn = stats.drawn;
            billboards += stats.billboards;
            least = least.min(drawn);
            most = most.max(drawn);
            sum += drawn;
            frames += 1;
        }
        Ok((least, sum, most, frames, billboards))
    }
}

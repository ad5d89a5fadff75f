//! Coefficients of the Rosenbrock methods [`super::Rodas`] runs: Rodas4 and Rodas5P, both in the
//! transformed form of Hairer & Wanner, padded to [`MAX_STAGES`] so that one stepping loop
//! serves both.

// Rodas4 coefficients (Hairer & Wanner, Solving ODEs II, 2nd ed., §VI.4), in the
// "transformed" form: Y_i = y + Σ A_ij K_j, (I/(hγ) − J) K_i = f(Y_i) + Σ (C_ij/h) K_j,
// y1 = y + Σ M_j K_j, error estimate = K_6.
const GAMMA: f64 = 0.25;
const A: [[f64; 5]; 6] = [
    [0.0, 0.0, 0.0, 0.0, 0.0],
    [1.544, 0.0, 0.0, 0.0, 0.0],
    [
        0.946_678_528_081_582_6,
        0.255_701_169_898_328_4,
        0.0,
        0.0,
        0.0,
    ],
    [
        3.314_825_187_068_521,
        2.896_124_015_972_201,
        0.998_641_913_997_781_7,
        0.0,
        0.0,
    ],
    [
        1.221_224_509_226_641,
        6.019_134_481_288_629,
        12.537_083_329_320_87,
        -0.687_886_036_105_895,
        0.0,
    ],
    [
        1.221_224_509_226_641,
        6.019_134_481_288_629,
        12.537_083_329_320_87,
        -0.687_886_036_105_895,
        1.0,
    ],
];
const C: [[f64; 5]; 6] = [
    [0.0, 0.0, 0.0, 0.0, 0.0],
    [-5.6688, 0.0, 0.0, 0.0, 0.0],
    [
        -2.430_093_356_833_875,
        -0.206_359_915_709_191_5,
        0.0,
        0.0,
        0.0,
    ],
    [
        -0.107_352_905_815_137_5,
        -9.594_562_251_023_355,
        -20.470_286_148_096_16,
        0.0,
        0.0,
    ],
    [
        7.496_443_313_967_647,
        -10.246_804_314_643_52,
        -33.999_903_528_199_05,
        11.708_908_932_061_6,
        0.0,
    ],
    [
        8.083_246_795_921_522,
        -7.981_132_988_064_893,
        -31.521_594_328_743_71,
        16.319_305_431_231_36,
        -6.058_818_238_834_054,
    ],
];
const M: [f64; 6] = [
    1.221_224_509_226_641,
    6.019_134_481_288_629,
    12.537_083_329_320_87,
    -0.687_886_036_105_895,
    1.0,
    1.0,
];
const STAGES: usize = 6;
/// Most stages of any method here (Rodas5P): sizes the stage arrays, so both methods share one
/// [`Tableau`] type and one scratch layout.
pub(super) const MAX_STAGES: usize = 8;

/// A Rosenbrock tableau in the transformed form used by [`super::Rodas::attempt`]:
/// Y_i = y + Σ a_ij K_j, (I/(hγ) − J) K_i = f(Y_i) + Σ (c_ij/h) K_j, y1 = y + Σ m_j K_j,
/// error estimate K_s.
pub(super) struct Tableau {
    /// Number of stages.
    pub(super) s: usize,
    /// Diagonal coefficient γ of the stage matrix I/(hγ) − J.
    pub(super) gamma: f64,
    pub(super) a: [[f64; MAX_STAGES - 1]; MAX_STAGES],
    pub(super) c: [[f64; MAX_STAGES - 1]; MAX_STAGES],
    pub(super) m: [f64; MAX_STAGES],
    /// Exponent of the step-size update, 1/(embedded order + 1).
    pub(super) q: f64,
}

const fn rodas4_tableau() -> Tableau {
    let mut a = [[0.0; MAX_STAGES - 1]; MAX_STAGES];
    let mut c = [[0.0; MAX_STAGES - 1]; MAX_STAGES];
    let mut m = [0.0; MAX_STAGES];
    let mut i = 0;
    while i < STAGES {
        let mut j = 0;
        while j < STAGES - 1 {
            a[i][j] = A[i][j];
            c[i][j] = C[i][j];
            j += 1;
        }
        m[i] = M[i];
        i += 1;
    }
    Tableau {
        s: STAGES,
        gamma: GAMMA,
        a,
        c,
        m,
        q: 0.25,
    }
}

pub(super) static RODAS4: Tableau = rodas4_tableau();

// Rodas5P coefficients (G. Steinebach, "Construction of Rosenbrock–Wanner method Rodas5P and
// numerical benchmarks within the Julia Differential Equations package", BIT 63, 2023), in the
// same transformed form; stages 6–8 all sit at t + h and each adds the previous K, so the
// method is stiffly accurate and K_8 is the error estimate.
const R5_A6: [f64; 5] = [
    -7.502846399306121,
    2.561846144803919,
    -11.627539656261098,
    -0.18268767659942256,
    0.030198172008377946,
];
pub(super) static RODAS5P: Tableau = Tableau {
    s: 8,
    gamma: 0.21193756319429014,
    a: [
        [0.0; 7],
        [3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [
            2.849394379747939,
            0.45842242204463923,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
        ],
        [
            -6.954028509809101,
            2.489845061869568,
            -10.358996098473584,
            0.0,
            0.0,
            0.0,
            0.0,
        ],
        [
            2.8029986275628964,
            0.5072464736228206,
            -0.3988312541770524,
            -0.04721187230404641,
            0.0,
            0.0,
            0.0,
        ],
        [R5_A6[0], R5_A6[1], R5_A6[2], R5_A6[3], R5_A6[4], 0.0, 0.0],
        [R5_A6[0], R5_A6[1], R5_A6[2], R5_A6[3], R5_A6[4], 1.0, 0.0],
        [R5_A6[0], R5_A6[1], R5_A6[2], R5_A6[3], R5_A6[4], 1.0, 1.0],
    ],
    c: [
        [0.0; 7],
        [-14.155112264123755, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [
            -17.97296035885952,
            -2.859693295451294,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
        ],
        [
            147.12150275711716,
            -1.41221402718213,
            71.68940251302358,
            0.0,
            0.0,
            0.0,
            0.0,
        ],
        [
            165.43517024871676,
            -0.4592823456491126,
            42.90938336958603,
            -5.961986721573306,
            0.0,
            0.0,
            0.0,
        ],
        [
            24.854864614690072,
            -3.0009227002832186,
            47.4931110020768,
            5.5814197821558125,
            -0.6610691825249471,
            0.0,
            0.0,
        ],
        [
            30.91273214028599,
            -3.1208243349937974,
            77.79954646070892,
            34.28646028294783,
            -19.097331116725623,
            -28.087943162872662,
            0.0,
        ],
        [
            37.80277123390563,
            -3.2571969029072276,
            112.26918849496327,
            66.9347231244047,
            -40.06618937091002,
            -54.66780262877968,
            -9.48861652309627,
        ],
    ],
    m: [
        R5_A6[0], R5_A6[1], R5_A6[2], R5_A6[3], R5_A6[4], 1.0, 1.0, 1.0,
    ],
    q: 0.2,
};
